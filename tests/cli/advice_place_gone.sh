#!/usr/bin/env bash
# A release listed in two places whose first place is gone: resolve's, doctor's and explain's advice
# name the module of the place that is there, never the module of the one that is not; nor does
# explain advise a release whose only place is gone (helper 105 r02: it advised cudnn/8.1 after
# 8.1's files were removed, first under prefer = "oldest").
. "$(dirname "$0")/common.sh"

cat >"$t/map.toml" <<MAP
schema = 1
[policy]
prefer = "oldest"
[[cudnn]]
version = "5.1.10"
lib = ["$t/gone/lib64", "$FAKES/5.1.10/lib64"]
module = ["cudnn/5.1-gone", "cudnn/5.1"]
[[cudnn]]
version = "5.1.5"
lib = "$t/removed/lib64"
module = "cudnn/5.1.5"
[[cudnn]]
version = "5.0.5"
lib = "$FAKES/5.0.5/lib64"
module = "cudnn/5.0"
MAP
export CUDNN_COMPAT_MAP="$t/map.toml"

expect_rc 0 cc resolve libcudnn.so.5 --require 5.1
has "without the shim: module load cudnn/5.1   # cuDNN 5.1.10"
lacks "module load cudnn/5.1-gone"

LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 expect_rc 1 cc doctor --require 5.1
has "fix: module load cudnn/5.1   # cuDNN 5.1.10"
lacks "module load cudnn/5.1-gone"

expect_rc 0 cc explain "Loaded runtime CuDNN library: 5005 (compatibility version 5000) but source was compiled with 5103 (compatibility version 5100)"
has "module load cudnn/5.1   # cuDNN 5.1.10"
lacks "cudnn/5.1-gone"
lacks "cudnn/5.1.5"
