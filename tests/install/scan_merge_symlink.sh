#!/usr/bin/env bash
# `scan --merge` as root keeps the old map as map.toml.bak. An unprivileged user who can write into
# the map's directory (a staff group's, a sticky one) plants map.toml.bak -> a file of root's: the
# merge must not overwrite it. The map in such a directory is refused outright; in a directory only
# root writes, a link left at the backup's name is replaced, never followed.
. "$(dirname "$0")/common.sh"
[[ $(id -u) == 0 ]] || skip "needs root (runs scan --merge as root against a user's link)"
command -v setpriv >/dev/null || skip "no setpriv (util-linux)"
cc=$BUILD_DIR/bin/cudnn-compat
chmod 0711 "$t"  # nobody must reach the map's directory
as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
printf 'precious\n' >"$t/victim"
chmod 0600 "$t/victim"
victim_untouched() {
  [[ $(cat "$t/victim") == precious ]] || fail "$1: the victim was overwritten: $(head -3 "$t/victim")"
  [[ $(stat -c %a "$t/victim") == 600 ]] || fail "$1: the victim's mode changed"
}
scan_merge() {
  "$cc" scan --modules none --search "$FAKES/5.1.10/lib64" --merge -o "$1/map.toml"
}

# A staff group's directory (root:nogroup 2775) and a sticky world-writable one.
for mode in 2775 1777; do
  d=$t/site-$mode
  mkdir "$d"
  chgrp nogroup "$d"
  chmod "$mode" "$d"
  site_map >"$d/map.toml"
  as_nobody ln -s "$t/victim" "$d/map.toml.bak" || fail "nobody cannot plant the link"
  rc=0
  scan_merge "$d" >"$t/scan.log" 2>&1 || rc=$?
  victim_untouched "directory $mode"
  out=$(<"$t/scan.log")
  [[ $rc == 1 ]] || fail "scan --merge in a directory others write exited $rc: $out"
  has "refused: its directory $d is writable by others than its owner"
done

# A directory only root writes, a link at the backup's name: replaced by the backup.
d=$t/site-root
mkdir "$d"
site_map >"$d/map.toml"
cp "$d/map.toml" "$t/old-map"
ln -s "$t/victim" "$d/map.toml.bak"
expect_rc 0 scan_merge "$d"
victim_untouched "root's directory"
[[ ! -L $d/map.toml.bak ]] || fail "the backup is still the link"
cmp -s "$d/map.toml.bak" "$t/old-map" || fail "the backup is not the old map"
