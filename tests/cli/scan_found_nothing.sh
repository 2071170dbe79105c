#!/usr/bin/env bash
# scan -o that finds nothing - a module tree not mounted, an empty MODULEPATH under cron, a
# --search root that is not there - leaves the map it would replace as it was, the admin's edits
# with it, and says so (an outside tester's finding: the map was rewritten with no release, which
# map validate calls valid, and a missing --search root went unsaid).
. "$(dirname "$0")/common.sh"

expect_rc 0 cc scan --modules none --search "$FAKES/9.1.0" -o "$t/etc/map.toml"
sed -i 's/^prefer = .*/prefer = "oldest"/' "$t/etc/map.toml"  # the admin's edit
cp "$t/etc/map.toml" "$t/before.toml"
expect_rc 1 cc scan --modules none --search "$t/not-mounted" -o "$t/etc/map.toml"
has "--search $t/not-mounted: no such directory"
has "found no cuDNN; $t/etc/map.toml is left as it was"
cmp -s "$t/before.toml" "$t/etc/map.toml" || fail "the map changed: $(cat "$t/etc/map.toml")"
mkdir "$t/empty"
expect_rc 1 cc scan --modules none --search "$t/empty" --merge -o "$t/etc/map.toml"
cmp -s "$t/before.toml" "$t/etc/map.toml" || fail "--merge changed the map: $(cat "$t/etc/map.toml")"
expect_rc 0 cc map validate "$t/etc/map.toml"
has "1 cuDNN release(s)"
# A map that was never there is not "left as it was".
expect_rc 1 cc scan --modules none --search "$t/empty" -o "$t/etc/new.toml"
has "found no cuDNN; nothing written to $t/etc/new.toml"
# Nor is an empty map printed (an outside admin's finding: exit 1, and a whole empty map on stdout).
out=$(cc scan --modules none --search "$t/empty" 2>/dev/null) && fail "scan that found nothing exited 0"
[[ -z $out ]] || fail "scan that found nothing printed: $out"
