#!/usr/bin/env bash
# map validate reports every problem with file:line:column, and --probe catches a map that lies.
. "$(dirname "$0")/common.sh"

cat >"$t/bad.toml" <<MAP
schema = 1
[policy]
rule = "tensorflw"
[[cudnn]]
version = "5.1"
lib = "$FAKES/5.1.10/lib64"
[[cudnn]]
version = "9.1.0"
lib = "/nonexistent/lib64"
colour = "blue"
MAP
expect_rc 1 cc map validate "$t/bad.toml"
has "$t/bad.toml:3:8: error: unknown rule \"tensorflw\""
has "$t/bad.toml:5:11: error: 'version' in [[cudnn]] is \"5.1\"; expected x.y.z"
has "$t/bad.toml:10:1: warning: unknown key 'colour'"
has "invalid"

expect_rc 1 cc map validate --json "$t/bad.toml"
has '"valid": false'
has '"line": 3'

fake_map >"$t/good.toml"
cat >>"$t/good.toml" <<MAP

[[cudnn]]
version = "7.6.5"
lib = "$t/nowhere"
MAP
expect_rc 0 cc map validate "$t/good.toml"
has "warning: lib \"$t/nowhere\" of cuDNN 7.6.5 is not a directory"
has "valid, 5 cuDNN release(s), 1 require rule(s); 0 error(s), 1 warning(s)"

# One release in two places is counted once (an outside tester's finding: places were releases).
cp -a "$FAKES/5.1.10" "$t/copy"
cat >"$t/places.toml" <<MAP
schema = 1
[[cudnn]]
version = "5.1.10"
lib = ["$FAKES/5.1.10/lib64", "$t/copy/lib64"]
module = ["cuDNN/5.1.10", "cudnn/5.1.10-abcdefg"]
MAP
expect_rc 0 cc map validate "$t/places.toml"
has "valid, 1 cuDNN release(s) in 2 places, 0 require rule(s)"

# The map says 5.1.3 where the library is 5.1.10.
cat >"$t/lie.toml" <<MAP
schema = 1
[[cudnn]]
version = "5.1.3"
lib = "$FAKES/5.1.10/lib64"
MAP
expect_rc 0 cc map validate "$t/lie.toml"
expect_rc 1 cc map validate --probe "$t/lie.toml"
has "$t/lie.toml:2:1: error: the map says cuDNN 5.1.3 but $FAKES/5.1.10/lib64/libcudnn.so.5 reports 5.1.10; set version = \"5.1.10\""

expect_rc 1 cc map validate "$t/missing.toml"
has "cannot read the map"
expect_rc 1 cc map validate "$t"
has "is a directory"

# With no map anywhere, the message names where it looked.
CUDNN_COMPAT_MAP= expect_rc 1 cc map validate
has "/etc/cudnn-compat/map.toml"

# Validating a map one owns refreshes the cache jobs read instead of parsing the TOML; the cache
# follows the map, and a map with errors leaves none behind.
expect_rc 0 cc map validate "$t/good.toml"
has "tables written: $t/good.toml.cache $t/good.toml.fits $t/good.toml.misfits $t/good.toml.decide"
[[ -f "$t/good.toml.cache" ]] || fail "no cache beside the map"
expect_rc 0 cc --json map validate "$t/good.toml"
has "\"cache\": \"$t/good.toml.cache\""
sed -i 's/^version = "7.6.5"/version = "7.6"/' "$t/good.toml"
expect_rc 1 cc resolve --map "$t/good.toml" --require 7.6 libcudnn.so.7
has "is invalid"
