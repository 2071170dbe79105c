#!/usr/bin/env bash
# scan --merge writes the map from what it read: a key this cudnn-compat does not know (an admin's
# note, a newer release's setting) would vanish, so the merge refuses and writes nothing; the
# admin's comments stay beside their lines, and the old map is named in FILE.bak (an outside
# tester's finding: both went silently; helper 115: the comments are carried, not only backed up).
. "$(dirname "$0")/common.sh"

expect_rc 0 cc scan --modules none --search "$FAKES/9.1.0" -o "$t/etc/map.toml"
sed -i 's/^\[policy\]$/# the site policy, agreed 2026-11\n[policy]/' "$t/etc/map.toml"
cp "$t/etc/map.toml" "$t/commented.toml"
printf 'owner_note = "ask hpc-admin before removing"\n' >>"$t/etc/map.toml"
sed -i 's/^\[policy\]$/[policy]\nreview = "2027-01"/' "$t/etc/map.toml"
cp "$t/etc/map.toml" "$t/before.toml"
expect_rc 1 cc scan --modules none --search "$FAKES/8.9.7" --merge -o "$t/etc/map.toml"
has "unknown key 'owner_note'"
has "unknown key 'review'"  # every one, not the first alone
has "scan --merge would drop what $t/etc/map.toml holds that this cudnn-compat does not know"
cmp -s "$t/before.toml" "$t/etc/map.toml" || fail "the map changed: $(cat "$t/etc/map.toml")"

cp "$t/commented.toml" "$t/etc/map.toml"
expect_rc 0 cc scan --modules none --search "$FAKES/8.9.7" --merge -o "$t/etc/map.toml"
has "the map merged into is kept as $t/etc/map.toml.bak"
grep -q "^# the site policy" "$t/etc/map.toml" || fail "the comment is not in the merged map"
grep -q "^# the site policy" "$t/etc/map.toml.bak" || fail "the comment is not in the .bak"
