#!/usr/bin/env bash
# doctor with a map that is named but cannot be used (not there, or refused for an error) said
# nothing of it, and its advice read as if the site had none: "ask the admins for cuDNN 5.1.x"
# where the map lists 5.1.10 (admin tester helper 115, finding 9; helper 117). It says first
# that the map is not used, and why, by the map's error: a problem where the map is there.
. "$(dirname "$0")/common.sh"
export CUDNN_COMPAT_MAP=$t/nowhere.toml
expect_rc 0 cc doctor  # a setting pointing nowhere is as no map: a warning
has "warning: the version map is not used: $t/nowhere.toml: error: cannot read the map"
has "fix: cudnn-compat map validate $t/nowhere.toml"
has "fix: or unset CUDNN_COMPAT_MAP, or point it at the site's map"
printf 'schema = 1\n[[cudnn]]\nverison = "5.1.10"\nlib = "%s"\nmodule = "cudnn/5.1"\n' \
  "$FAKES/5.1.10/lib64" >"$t/map.toml"
export CUDNN_COMPAT_MAP=$t/map.toml
expect_rc 1 cc doctor --json
has '"severity": "problem"'
has "the version map is not used: $t/map.toml:2:1: error: missing key 'version'"
# A map that loads: no such line.
printf 'schema = 1\n[[cudnn]]\nversion = "5.1.10"\nlib = "%s"\nmodule = "cudnn/5.1"\n' \
  "$FAKES/5.1.10/lib64" >"$t/map.toml"
expect_rc 0 cc doctor
lacks "the version map is not used"
