#!/usr/bin/env bash
# map validate writes no cache for an invalid map and claims none, and removes the caches an
# earlier validation wrote while the map itself is unchanged (the shim would still trust them).
. "$(dirname "$0")/common.sh"

printf 'schema = 1\n[[cudnn]]\nversion = "5.1.10"\nlib = "rel/lib64"\n' >"$t/relative.toml"
expect_rc 1 cc map validate "$t/relative.toml"
has "is relative"
lacks "cache written"
for f in cache fits decide; do [[ ! -e $t/relative.toml.$f ]] || fail "relative.toml.$f written"; done

# Valid without --probe (a warning), invalid with it: the same map, the same stamp.
cat >"$t/map.toml" <<MAP
schema = 1
[[cudnn]]
version = "5.1.10"
lib = "$FAKES/5.1.10/lib64"
[[cudnn]]
version = "5.0.5"
lib = "$FAKES/5.1.10/lib64"
MAP
expect_rc 0 cc map validate "$t/map.toml"
has "cache written: $t/map.toml.cache"
[[ -s $t/map.toml.decide ]] || fail "no decision table for the valid map"
expect_rc 1 cc map validate --probe "$t/map.toml" --json
has '"cache": null'
for f in cache fits decide; do [[ ! -e $t/map.toml.$f ]] || fail "map.toml.$f left beside the invalid map"; done
