// A valid schema-1 map with every key, shared by the map and map-cache tests.
#pragma once

inline constexpr const char *kExampleMap = R"(schema = 1

[policy]
rule = "tensorflow-2016"
prefer = "oldest"

[[cudnn]]
version = "5.1.10"
lib = "/opt/cudnn/5.1.10/lib64"
cuda = "8.0"
module = "cudnn/5.1"

[[cudnn]]
version = "8.9.2.26"
lib = "/opt/cudnn/8.9.2/lib64"

[[require]]
match = "/opt/apps/tensorflow/1.0/*"
cudnn = "5.1"
cuda = "8"
)";
