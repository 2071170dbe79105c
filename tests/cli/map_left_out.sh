#!/usr/bin/env bash
# map validate without --probe reports, as a counted warning, every release it leaves out of the
# decision table: which release, why, and what to do.
. "$(dirname "$0")/common.sh"

entries "5.1.10:$FAKES/5.1.10/lib64" "7.6.5:$FAKES/crashing-7.6.5/lib64" >"$t/map.toml"
expect_rc 0 cc map validate "$t/map.toml"
has "$t/map.toml:5:1: warning: cuDNN 7.6.5 is left out of the decision table: $FAKES/crashing-7.6.5/lib64/libcudnn.so.7 did not load"
has "or remove the entry"
has "0 error(s), 1 warning(s)"
grep -q "^lib	0	" "$t/map.toml.decide" || fail "5.1.10 is not in the table"
! grep -q "^lib	1	" "$t/map.toml.decide" || fail "the release that did not load is in the table"
