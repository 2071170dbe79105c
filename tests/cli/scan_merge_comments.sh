#!/usr/bin/env bash
# scan --merge writes the map from what it read, which has no comments: the admin's comments go
# back beside the lines they were written with, end-of-line ones too; those whose line the merged
# map no longer has are said to be in the backup, and every merge names its backup (admin tester
# helper 115, finding 3: `prefer = "oldest"  # ... ticket 4711` lost its comment without a word,
# and merges with nothing to report left .bak.1, .bak.2 unnamed).
. "$(dirname "$0")/common.sh"
map=$t/etc/map.toml

expect_rc 0 cc scan --modules none --search "$FAKES/9.1.0" -o "$map"
sed -i 's/^prefer = .*/prefer = "oldest"  # decided with the users group, ticket 4711/' "$map"
expect_rc 0 cc scan --modules none --search "$FAKES/9.1.0" --search "$FAKES/8.9.7" --merge -o "$map"
has "the map merged into is kept as $map.bak"
lacks "are not in"
out=$(cat "$map")
has 'prefer = "oldest"  # decided with the users group, ticket 4711'
has 'version = "8.9.7"'

# Full-line comments stay above their line, whichever table: the policy's and an entry's.
sed -i 's/^\[policy\]$/# the site policy, agreed 2026-11\n[policy]/' "$map"
sed -i "s|^lib = \"$FAKES/9.1.0/lib64\"\$|# the users' default\\nlib = \"$FAKES/9.1.0/lib64\"   # on /opt|" "$map"
cp "$map" "$t/edited.toml"
expect_rc 0 cc scan --modules none --search "$FAKES/9.1.0" --search "$FAKES/8.9.7" --merge -o "$map"
has "the map merged into is kept as $map.bak.1"
cmp -s "$t/edited.toml" "$map" || fail "a merge that changes nothing changed the map: $(diff "$t/edited.toml" "$map")"
expect_rc 0 cc map validate "$map"

# Nothing to report, nothing edited: the backup is still named (the same text: map.toml.bak.1).
expect_rc 0 cc scan --modules none --search "$FAKES/9.1.0" --search "$FAKES/8.9.7" --merge -o "$map"
has "the map merged into is kept as $map.bak.1"

# A comment whose line is gone (the rule changed by the admin is kept; a hand-written entry whose
# directory holds no cuDNN any more is dropped, with its comment) is said to be in the backup.
printf '\n# hand-written: the old copy\n[[cudnn]]\nversion = "5.1.10"\nlib = "%s"  # gone soon\n' \
  "$t/removed" >>"$map"
cp -a "$FAKES/5.1.10/lib64" "$t/removed"
expect_rc 0 cc map validate "$map"
rm -r "$t/removed"
expect_rc 0 cc scan --modules none --search "$FAKES/9.1.0" --search "$FAKES/8.9.7" --merge -o "$map"
has "scan: dropped cuDNN 5.1.10"
has "comments of $map whose line the merged map no longer has are not in it; the map merged into, with them, is kept as $map.bak.2"
grep -qF '# gone soon' "$map.bak.2" || fail "the comment is not in the .bak.2"
out=$(cat "$map")
lacks "hand-written: the old copy"
has 'prefer = "oldest"  # decided with the users group, ticket 4711'
has "# the site policy, agreed 2026-11"
