#!/usr/bin/env bash
# The .deb installed, upgraded, removed and purged by dpkg itself: the install makes
# /etc/cudnn-compat, where the admin's first `cudnn-compat scan -o /etc/cudnn-compat/map.toml`
# writes; an upgrade and a remove keep the map and its tables; a purge removes the tables `map
# validate` wrote beside the map and keeps the map (the admin's), removes the directory once
# nothing else is in it, and leaves a directory that is a link (a shared one) alone. The maintainer
# scripts are set -e, idempotent, and refuse an argument they do not know. This machine's /usr,
# /etc and /var are left alone: dpkg runs in a mount namespace of its own, over overlays of the
# three (root only).
. "$(dirname "$0")/common.sh"
if [[ -z ${DEB_PURGE_STAGE:-} ]]; then
  need_tools --why "scripts/deps.sh installs dpkg-dev" cpack dpkg dpkg-deb dpkg-shlibdeps unshare
  [[ $(id -u) == 0 ]] || skip "dpkg and the overlay mounts over /usr, /etc and /var need root"
  unshare -m true 2>/dev/null || skip "no mount namespace here (unshare -m)"
  deb_built
  mounts=""
  for d in usr etc var; do
    mkdir -p "$t/upper/$d" "$t/work/$d"
    mounts+="mount -t overlay overlay -o lowerdir=/$d,upperdir=$t/upper/$d,workdir=$t/work/$d /$d && "
  done
  mount_ok=$(unshare -m sh -c "${mounts}echo yes" 2>&1) || true
  [[ $mount_ok == yes ]] || skip "no overlay mounts here: $mount_ok"
  DEB_PURGE_STAGE=$t DEB=$deb unshare -m bash -c "${mounts}exec bash '$0'" && exit 0 || exit $?
fi

touch /etc/.overlay-probe && [[ -f $DEB_PURGE_STAGE/upper/etc/.overlay-probe ]] || fail "the overlays are not in place"
dir=/etc/cudnn-compat
map=$dir/map.toml
rm -rf "$dir"  # this machine's, if any, hidden in the overlay
tables=("$map.cache" "$map.fits" "$map.misfits" "$map.decide")
dpkg_do() { expect_rc 0 dpkg --no-triggers "$@"; }
# tables_there yes|no: whether each table is beside the map.
tables_there() {
  local f
  for f in "${tables[@]}"; do
    if [[ $1 == yes ]]; then [[ -f $f ]] || fail "$f is gone ($2): $(ls -A "$dir")"; fi
    if [[ $1 == no ]]; then [[ ! -e $f ]] || fail "$f is still there ($2): $(ls -A "$dir")"; fi
  done
}

# A fresh install: the map's directory is there, empty, and the admin's first command writes there.
dpkg_do -i "$DEB"
[[ -d $dir && ! -L $dir ]] || fail "no $dir after the install"
[[ $(stat -c %a "$dir") == 755 ]] || fail "$dir is $(stat -c %a "$dir"), not 755"
[[ -z $(ls -A "$dir") ]] || fail "the install put files into $dir: $(ls -A "$dir")"
expect_rc 0 /usr/bin/cudnn-compat scan --modules none --search "$FAKES/5.1.10/lib64" -o "$map"
has "1 cuDNN release(s) in the map $map"
# The site's map, validated: its tables beside it.
site_map >"$map"
expect_rc 0 /usr/bin/cudnn-compat map validate
tables_there yes "after map validate"
echo "tables: $(ls -A "$dir")"

# An upgrade (the package over itself: the old postrm upgrade, the new postinst configure) and a
# remove keep the map and its tables.
dpkg_do -i "$DEB"
tables_there yes "after an upgrade"
dpkg_do -r cudnn-compat
[[ ! -e /usr/bin/cudnn-compat ]] || fail "dpkg -r left the program"
tables_there yes "after dpkg -r"
[[ -f $map ]] || fail "dpkg -r removed the map"
# The purge: the tables go, the map stays, and so does its directory.
dpkg_do --purge cudnn-compat
tables_there no "after dpkg --purge"
[[ -f $map ]] || fail "dpkg --purge removed the admin's map"
echo "after the purge: $(ls -A "$dir")"

# With nothing but the tables left, the purge removes the directory too.
dpkg_do -i "$DEB"
expect_rc 0 /usr/bin/cudnn-compat map validate
rm "$map"
dpkg_do --purge cudnn-compat
[[ ! -e $dir ]] || fail "the purge left $dir with: $(ls -A "$dir")"

# A directory that is a link (a shared one, other nodes read its tables) is not the purge's.
mkdir "$t/shared"
ln -s "$t/shared" "$dir"
dpkg_do -i "$DEB"
site_map >"$map"
expect_rc 0 /usr/bin/cudnn-compat map validate
dpkg_do --purge cudnn-compat
tables_there yes "after a purge, in a linked directory"
rm "$dir"

# The scripts themselves: set -e, again and again without harm, and no unknown argument taken.
dpkg-deb -e "$DEB" "$t/control"
for s in postinst postrm; do
  grep -qx 'set -e' "$t/control/$s" || fail "$s is not set -e"
  [[ $(grep -v '^[[:space:]]*#' "$t/control/$s") != *ldconfig* ]] || fail "$s calls ldconfig: $(cat "$t/control/$s")"
  expect_rc 1 "$t/control/$s" frobnicate
done
for i in 1 2; do
  expect_rc 0 "$t/control/postinst" configure
  expect_rc 0 "$t/control/postrm" purge
  expect_rc 0 "$t/control/postrm" remove
  expect_rc 0 "$t/control/postrm" upgrade 0.1.0
done
[[ ! -e $dir ]] || fail "postrm purge left $dir: $(ls -A "$dir")"
