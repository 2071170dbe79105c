#!/usr/bin/env bash
# map validate writes no cache for an invalid map and claims none, and removes the caches an
# earlier validation wrote while the map itself is unchanged (the shim would still trust them).
. "$(dirname "$0")/common.sh"

entries "5.1.10:rel/lib64" >"$t/relative.toml"
expect_rc 1 cc map validate "$t/relative.toml"
has "is relative"
lacks "tables written"
for f in cache fits misfits decide; do [[ ! -e $t/relative.toml.$f ]] || fail "relative.toml.$f written"; done

# Valid without --probe (a warning), invalid with it: the same map, the same stamp.
entries "5.1.10:$FAKES/5.1.10/lib64" "5.0.5:$FAKES/5.1.10/lib64" >"$t/map.toml"
expect_rc 0 cc map validate "$t/map.toml" --json
has '"tables": ['
has "\"$t/map.toml.decide\""
expect_rc 0 cc map validate "$t/map.toml"
has "tables written: $t/map.toml.cache "
[[ -s $t/map.toml.decide ]] || fail "no decision table for the valid map"
expect_rc 1 cc map validate --probe "$t/map.toml" --json
has '"cache": null'
has '"tables": []'
for f in cache fits misfits decide; do [[ ! -e $t/map.toml.$f ]] || fail "map.toml.$f left beside the invalid map"; done
