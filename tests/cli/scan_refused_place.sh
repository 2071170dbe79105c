#!/usr/bin/env bash
# scan -o into a directory its group may write (an admin team's 2775, before the map names that
# group as trusted_group) keeps the map it wrote, but every reader and `map validate` refuse it:
# scan says so as an error and fails, so `scan -o ... && deploy` stops there (an outside tester's
# finding: a note, exit 0, no tables).
. "$(dirname "$0")/common.sh"

mkdir -m 2775 "$t/shared"
expect_rc 1 cc scan --modules none --search "$FAKES/9.1.0" -o "$t/shared/map.toml"
has "cudnn-compat: $t/shared/map.toml: error: refused: its directory $t/shared is writable by others"
has "name its group in [policy] trusted_group"
[[ -s $t/shared/map.toml ]] || fail "the map scan found was not kept"
expect_rc 1 cc map validate "$t/shared/map.toml"
# A trusted_group with a typo is said to be no group, not "no trusted_group" (an outside tester).
sed -i "s/^\[policy\]$/[policy]\ntrusted_group = \"hpcadmn-typo\"/" "$t/shared/map.toml"
expect_rc 1 cc map validate "$t/shared/map.toml"
has "the map's trusted_group \"hpcadmn-typo\" is no group on this system"
sed -i '/^trusted_group = "hpcadmn-typo"$/d' "$t/shared/map.toml"
# Once the group is trusted, the map it kept validates as it is.
sed -i "s/^\[policy\]$/[policy]\ntrusted_group = \"$(id -gn)\"/" "$t/shared/map.toml"
chgrp "$(id -gn)" "$t/shared"
expect_rc 0 cc map validate "$t/shared/map.toml"
