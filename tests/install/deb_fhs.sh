#!/usr/bin/env bash
# The .deb's tree where dpkg puts it, /usr, with the site's map at /etc/cudnn-compat/map.toml: every
# reader (the tool and the engine, the shim, the Lmod hook, the Environment Modules hook) finds
# that map with no CUDNN_COMPAT_MAP, none looks for one under /usr/etc (a decoy there that breaks
# whoever reads it), and the tool names the example the .deb ships; doctor and --help say where the
# map goes, and scan -o makes its directory. This machine's /usr and /etc
# are left alone: the test runs in a mount namespace of its own, where the unpacked .deb is laid
# over /usr and the map over /etc (overlay mounts; root only).
. "$(dirname "$0")/common.sh"
if [[ -z ${DEB_FHS_STAGE:-} ]]; then
  need_tools --why "scripts/deps.sh installs dpkg-dev" cpack dpkg-deb dpkg-shlibdeps unshare
  [[ $(id -u) == 0 ]] || skip "the overlay mounts over /usr and /etc need root"
  unshare -m true 2>/dev/null || skip "no mount namespace here (unshare -m)"
  deb_built
  dpkg-deb -x "$deb" "$t/root"
  mkdir -p "$t/decoy/etc/cudnn-compat" "$t/etc/cudnn-compat" "$t/work"
  echo 'a decoy: no reader of the .deb may look under /usr/etc' >"$t/decoy/etc/cudnn-compat/map.toml"
  chmod -R go-w "$t/decoy" "$t/etc"
  mount_ok=$(unshare -m sh -c "mount -t overlay overlay -o lowerdir=$t/decoy:$t/root/usr:/usr /usr &&
    mount -t overlay overlay -o lowerdir=/etc,upperdir=$t/etc,workdir=$t/work /etc && echo yes" 2>&1) || true
  [[ $mount_ok == yes ]] || skip "no overlay mounts here: $mount_ok"
  # The checks below, in a namespace with the overlays in place.
  DEB_FHS_STAGE=$t unshare -m bash -c "
    mount -t overlay overlay -o lowerdir=$t/decoy:$t/root/usr:/usr /usr &&
    mount -t overlay overlay -o lowerdir=/etc,upperdir=$t/etc,workdir=$t/work /etc &&
    exec bash '$0'" && exit 0 || exit $?
fi

cc=/usr/bin/cudnn-compat
[[ -x $cc && -f /usr/etc/cudnn-compat/map.toml ]] || fail "the overlays are not in place"
# No map yet: the tool looks where the FHS puts it and names the example the .deb ships.
rm -f /etc/cudnn-compat/map.toml*
expect_rc 1 "$cc" map validate
has "looked for /etc/cudnn-compat/map.toml)"
lacks "/usr/etc"
has "write one from /usr/share/cudnn-compat/map.toml.example"
[[ -f /usr/share/cudnn-compat/map.toml.example ]] || fail "the .deb has no example map"
# doctor says so in one line, with the command that writes the map where the .deb looks.
out=$("$cc" doctor 2>&1) || true
count "no version map" 1
has "map: no version map (looked for /etc/cudnn-compat/map.toml); write one: cudnn-compat scan -o /etc/cudnn-compat/map.toml"
# --json says it in no_map (null once there is a map, below).
out=$("$cc" --json doctor 2>&1) || true
has '"no_map": "no version map (looked for /etc/cudnn-compat/map.toml); write one: cudnn-compat scan -o /etc/cudnn-compat/map.toml"'
# --help names the map this installation reads (the rule the readers follow, for the prefix /usr),
# and the manual page the rule for every installation.
expect_rc 0 "$cc" --help
has "CUDNN_COMPAT_MAP      the version map (default: /etc/cudnn-compat/map.toml)"
lacks "<prefix>"
lacks "/usr/etc"
if command -v man >/dev/null; then
  out=$(MANWIDTH=200 man -l /usr/share/man/man1/cudnn-compat.1.gz 2>/dev/null)
  has "(installed under /usr, as by the .deb: /etc/cudnn-compat/map.toml only)"
fi
# Without its directory, the admin's first scan makes it (and says so), 0755 even under a umask
# that would hide it (the map in it is 0644 whatever the umask).
rm -rf /etc/cudnn-compat
mask=$(umask)
umask 077
expect_rc 0 "$cc" scan --modules none --search "$FAKES/5.1.10/lib64" -o /etc/cudnn-compat/map.toml
umask "$mask"
has "note: created the directory /etc/cudnn-compat for the map"
[[ $(stat -c %a /etc/cudnn-compat) == 755 && -f /etc/cudnn-compat/map.toml ]] ||
  fail "scan -o made $(stat -c %a /etc/cudnn-compat) $(ls -A /etc/cudnn-compat)"
out=$("$cc" --json doctor 2>&1) || true
has '"no_map": null'

# The site's map at /etc/cudnn-compat/map.toml, validated there (its tables beside it).
site_map >/etc/cudnn-compat/map.toml
for f in lua tcl; do
  CUDNN_COMPAT_MAP=/etc/cudnn-compat/map.toml "$cc" modulefiles --format $f -o "$t/modules/$f" >/dev/null
done
app_modules "$t/modules"
expect_rc 0 "$cc" map validate
has "/etc/cudnn-compat/map.toml: valid, 2 cuDNN release(s)"
expect_rc 0 "$cc" resolve libcudnn.so.5 --require 5.1
has "$FAKES/5.1.10/lib64/libcudnn.so.5"
expect_rc 0 "$cc" shim-path
[[ $out == /usr/lib/cudnn-compat/libcudnn-compat.so ]] || fail "shim-path: $out"

# The shim (its table, then its engine with the table gone) redirects from the map in /etc.
tf2016_client
for how in table engine; do
  expect_rc 0 env CUDNN_COMPAT_REQUIRE=5.1 LD_LIBRARY_PATH="$FAKES/5.0.5/lib64" \
    LD_AUDIT=/usr/lib/cudnn-compat/libcudnn-compat.so "$t/apps/tf2016"
  has "cuDNN 5110 from $FAKES/5.1.10/lib64/libcudnn.so.5"
  echo "the shim ($how): redirected from /etc/cudnn-compat/map.toml"
  rm -f /etc/cudnn-compat/map.toml.decide
done

# Both hooks, from /usr/share/cudnn-compat, tell the misfit from the tables beside the map in /etc,
# without starting the tool (which would find that map itself): a hook that took the decoy would
# find no tables beside it and start the tool.
printf '#!/bin/sh\necho "$*" >>"%s"\nexec %s "$@"\n' "$t/started" "$cc" >"$t/counted"
chmod +x "$t/counted"
for system in lmod tcl; do
  if [[ $system == lmod && ! -x $lmod_cmd ]] || [[ $system == tcl && ! -f $modulecmd ]]; then
    echo "no $system here: its hook is not checked"
    continue
  fi
  CUDNN_COMPAT_BIN=$t/counted $system /usr load tensorflow/1.0 cudnn/5.0 || true
  has "$misfit"
  [[ ! -e $t/started ]] || fail "the $system hook started the tool: $(cat "$t/started")"
  $system /usr purge
done
