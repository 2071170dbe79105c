#!/usr/bin/env bash
# A map shared through a link (/etc/cudnn-compat/map.toml -> the site's copy) and rewritten by
# `scan` stays a link: the file it leads to is updated and keeps its owner, group and mode.
. "$(dirname "$0")/common.sh"
[[ $(id -u) == 0 ]] || skip "needs root (gives the map a group of its own)"
cc=$BUILD_DIR/bin/cudnn-compat
mkdir "$t/shared" "$t/etc"
site_map >"$t/shared/map.toml"
chgrp nogroup "$t/shared/map.toml"
chmod 0640 "$t/shared/map.toml"
ln -s ../shared/map.toml "$t/etc/map.toml"
expect_rc 0 "$cc" scan --modules none --search "$FAKES/9.1.0/lib64" --merge -o "$t/etc/map.toml"
[[ -L $t/etc/map.toml ]] || fail "the link was replaced by a file"
grep -q '"9.1.0"' "$t/shared/map.toml" || fail "the shared map was not updated"
out=$(stat -c '%a %U %G' "$t/shared/map.toml")
[[ $out == "640 root nogroup" ]] || fail "the shared map is now '$out', was '640 root nogroup'"
