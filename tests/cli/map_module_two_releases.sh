#!/usr/bin/env bash
# One module name on two releases is an error with file:line, the module and both versions (the
# hooks would advise loading the module that is loaded); one release in several places under
# several modules stays valid.
. "$(dirname "$0")/common.sh"

entries "5.1.10:$FAKES/5.1.10/lib64:cudnn/5" "5.0.5:$FAKES/5.0.5/lib64:cudnn/5" >"$t/map.toml"
expect_rc 1 cc map validate "$t/map.toml"
has "$t/map.toml:6:1: error: module 'cudnn/5' is listed for cuDNN 5.0.5 here and for cuDNN 5.1.10 at line 2; a module loads one release"
has "invalid"

cat >"$t/joined.toml" <<MAP
schema = 1
[[cudnn]]
version = "5.1.10"
lib = ["$FAKES/5.1.10/lib64", "$FAKES/5.1.10/lib64"]
module = ["cudnn/5.1.10-eb", "cudnn/5.1.10-spack-abcdef"]
MAP
expect_rc 0 cc map validate "$t/joined.toml"
has "valid, 1 cuDNN release(s) in 2 places"
