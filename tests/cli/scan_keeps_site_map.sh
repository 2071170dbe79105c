#!/usr/bin/env bash
# A plain `scan -o` over a map already there would drop the admin's [policy], [[require]] rules
# and comments: it writes nothing, says how to fold the scan in (--merge) or replace the map
# (--replace, the old one kept as FILE.bak), and fails (helper 105 r08: the site's map was
# replaced silently, exit 0). The same scan again, which changes nothing, is no replacement.
. "$(dirname "$0")/common.sh"

expect_rc 0 cc scan --modules none --search "$FAKES/9.1.0" -o "$t/etc/map.toml"
expect_rc 0 cc scan --modules none --search "$FAKES/9.1.0" -o "$t/etc/map.toml"
[[ ! -e $t/etc/map.toml.bak ]] || fail "an unchanged map was replaced"
sed -i 's/^\[policy\]$/# ticket 4711: TensorFlow 1.0 was built with 5.1\n[policy]/' "$t/etc/map.toml"
printf '[[require]]\nmatch = "/opt/apps/tensorflow/1.0/*"\ncudnn = "5.1"\n' >>"$t/etc/map.toml"
expect_rc 0 cc map validate "$t/etc/map.toml"
cp "$t/etc/map.toml" "$t/site.toml"
expect_rc 1 cc scan --modules none --search "$FAKES/9.1.0" --search "$FAKES/8.9.7" \
  -o "$t/etc/map.toml"
has "already holds a map, which this scan would replace, with its [policy], [[require]] rules and comments; nothing written"
has "cudnn-compat scan --merge -o $t/etc/map.toml"
cmp -s "$t/site.toml" "$t/etc/map.toml" || fail "the map changed: $(cat "$t/etc/map.toml")"
# Folded in: the rule stays, 8.9.7 is added.
expect_rc 0 cc scan --modules none --search "$FAKES/9.1.0" --search "$FAKES/8.9.7" --merge \
  -o "$t/etc/map.toml"
out=$(cat "$t/etc/map.toml")
has 'match = "/opt/apps/tensorflow/1.0/*"'
has 'version = "8.9.7"'
# Replaced when asked, the old map kept.
cp "$t/site.toml" "$t/etc/map.toml"
expect_rc 0 cc scan --modules none --search "$FAKES/8.9.7" --replace -o "$t/etc/map.toml"
cmp -s "$t/site.toml" "$t/etc/map.toml.bak" || fail "the old map was not kept as map.toml.bak"
out=$(cat "$t/etc/map.toml")
lacks "tensorflow"
# Replaced again: the admin's map stays in map.toml.bak, the first scan's goes to map.toml.bak.1
# (helper 109: a second --replace overwrote the only copy of the admin's map).
cp "$t/etc/map.toml" "$t/first-scan.toml"
expect_rc 0 cc scan --modules none --search "$FAKES/9.1.0" --replace -o "$t/etc/map.toml"
has "the map it replaces is kept as $t/etc/map.toml.bak.1"
cmp -s "$t/site.toml" "$t/etc/map.toml.bak" || fail "the admin's map is gone from map.toml.bak"
cmp -s "$t/first-scan.toml" "$t/etc/map.toml.bak.1" || fail "the first scan's map was not kept"
