#!/usr/bin/env bash
# map validate --probe on one directory listed under two releases says so, naming both entries and
# the release its library reports, instead of advising a version change that makes two entries
# of one release.
. "$(dirname "$0")/common.sh"

entries "5.1.10:$FAKES/5.1.10/lib64" "5.0.5:$FAKES/5.1.10/lib64" >"$t/map.toml"
expect_rc 1 cc map validate --probe "$t/map.toml"
has "$t/map.toml:5:1: error: directory $FAKES/5.1.10/lib64 is listed under two releases: cuDNN 5.0.5 here and cuDNN 5.1.10 at line 2; its $FAKES/5.1.10/lib64/libcudnn.so.5 reports cuDNN 5.1.10"
lacks 'set version ='
count "error:" 1
