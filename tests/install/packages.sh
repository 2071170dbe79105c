#!/usr/bin/env bash
# cpack builds the .deb and the .rpm; their metadata is right (name, version = `cudnn-compat
# --version`, dependencies computed from the binaries, license, Slurm's plugin named where it was
# built); the .deb lays the tree out under /usr (Debian's FHS: no conffile, the example map in
# /usr/share/cudnn-compat, the docs and Debian's copyright file in /usr/share/doc/cudnn-compat;
# deb_lintian.sh runs lintian on it), the .rpm is the relocatable tree with its etc/ example marked
# as config and nothing outside its prefix; the .deb installed into a throwaway root runs the
# demo's core steps from there.
. "$(dirname "$0")/common.sh"
for tool in cpack dpkg-deb dpkg-shlibdeps rpmbuild rpm; do
  command -v $tool >/dev/null || skip "no $tool (scripts/deps.sh installs dpkg-dev and rpm)"
done
expect_rc 0 cpack -G "DEB;RPM" --config "$BUILD_DIR/CPackConfig.cmake" -B "$t/pkg"
deb=$(echo "$t"/pkg/cudnn-compat_*.deb) rpm=$(echo "$t"/pkg/cudnn-compat-*.rpm)
[[ -f $deb && -f $rpm ]] || fail "cpack made no .deb or no .rpm: $(ls "$t/pkg")"
version=$("$BUILD_DIR/bin/cudnn-compat" --version | head -n 1)
"$BUILD_DIR/bin/cudnn-compat" --version | grep -q "MIT" || fail "--version does not name the licence"
files=(bin/cudnn-compat lib/cudnn-compat/libcudnn-compat.so lib/cudnn-compat/cudnn-compat-select
  lib/cudnn-compat/cudnn-compat-probe share/cudnn-compat/lmod/SitePackage.lua
  share/cudnn-compat/envmodules/siteconfig.tcl)

# The .deb.
[[ $version == "cudnn-compat $(dpkg-deb -f "$deb" Version)" ]] || fail "--version says '$version'"
out=$(dpkg-deb -f "$deb" Package Depends Description)
has "Package: cudnn-compat"
has "libc6 (>="  # from dpkg-shlibdeps, not written by hand
has "Description: Hands every job a compatible cuDNN"
if [[ -f $BUILD_DIR/lib/cudnn-compat/spank-cudnn-compat.so ]]; then
  files+=(lib/cudnn-compat/spank-cudnn-compat.so)
  has "For Slurm, a SPANK plugin"
  out=$(dpkg-deb -f "$deb" Enhances)
  has "slurmd"
fi
out=$(dpkg-deb -c "$deb")
for f in "${files[@]}" share/cudnn-compat/map.toml.example share/doc/cudnn-compat/README.md \
  share/doc/cudnn-compat/copyright; do
  has "./usr/$f"
done
outside=$(awk '{print $6}' <<<"$out" | grep -vE '^\./(usr/.*)?$' || true)
[[ -z $outside ]] || fail "the .deb installs outside /usr: $outside"
out=$(dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/share/doc/cudnn-compat/copyright)
has "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
has "Upstream-Name: cudnn-compat"
has "License: MIT"
has " Permission is hereby granted"
out=$(dpkg-deb -I "$deb" conffiles 2>&1 || true)
lacks "map.toml"

# The .rpm.
files+=(etc/cudnn-compat/map.toml.example)
[[ $version == "cudnn-compat $(rpm -qp --qf '%{VERSION}' "$rpm" 2>/dev/null)" ]] ||
  fail "rpm version differs from '$version'"
out=$(rpm -qp --qf '%{NAME} %{LICENSE} %{PREFIXES}\n' "$rpm" 2>/dev/null)
has "cudnn-compat MIT /opt/cudnn-compat"
out=$(rpm -qp --requires "$rpm" 2>/dev/null)
has "libc.so.6("  # from rpmbuild's dependency generator
out=$(rpm -qlp "$rpm" 2>/dev/null)
for f in "${files[@]}"; do has "/opt/cudnn-compat/$f"; done
out=$(grep -v '^/opt/cudnn-compat' <<<"$out" || true)
[[ -z $out ]] || fail "the rpm installs outside its prefix: $out"
out=$(rpm -qp --qf '%{DESCRIPTION}' "$rpm" 2>/dev/null)
has "A shim (LD_AUDIT/LD_PRELOAD) that hands every process a compatible cuDNN"
out=$(rpm -qcp "$rpm" 2>/dev/null)
[[ $out == /opt/cudnn-compat/etc/cudnn-compat/map.toml.example ]] || fail "rpm config files: $out"

# The .rpm is relocatable: installed elsewhere in a throwaway root, it works where it lands.
rroot=$t/rpmroot
mkdir "$rroot"
rpm --root "$rroot" --initdb 2>/dev/null
expect_rc 0 rpm --root "$rroot" --nodeps --relocate /opt/cudnn-compat=/apps/cc -i "$rpm"
out=$(rpm --root "$rroot" -qc cudnn-compat 2>/dev/null)
[[ $out == /apps/cc/etc/cudnn-compat/map.toml.example ]] || fail "relocated config file: $out"
site_map >"$rroot/apps/cc/etc/cudnn-compat/map.toml"
expect_rc 0 "$rroot/apps/cc/bin/cudnn-compat" resolve libcudnn.so.5 --require 5.1
has "$FAKES/5.1.10/lib64/libcudnn.so.5"

# The .deb in a throwaway root, by dpkg itself (its own database there; the root's libc is the
# host's, so dependencies are not checked), then the demo's core steps from the unpacked tree.
root=$t/root
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
touch "$root/var/lib/dpkg/status"
expect_rc 0 dpkg --root="$root" --force-depends --force-script-chrootless -i "$deb"
out=$(dpkg-query --admindir="$root/var/lib/dpkg" -W -f='${Conffiles}' cudnn-compat)
[[ -z $out ]] || fail "dpkg recorded conffiles: $out"
# Outside /usr the tree takes its map from its own etc/ like any moved tree (deb_fhs.sh: at /usr,
# the map is /etc/cudnn-compat/map.toml).
p=$root/usr cc=$root/usr/bin/cudnn-compat
mkdir -p "$p/etc/cudnn-compat"
site_map >"$p/etc/cudnn-compat/map.toml"
expect_rc 0 "$cc" map validate --probe
has "$p/etc/cudnn-compat/map.toml: valid, 2 cuDNN release(s)"
expect_rc 0 "$cc" resolve libcudnn.so.5 --require 5.1
has "$FAKES/5.1.10/lib64/libcudnn.so.5"
tf2016_client
log=$(LD_LIBRARY_PATH="$FAKES/5.0.5/lib64" "$t/apps/tf2016" 2>&1 || true)
expect_rc 0 "$cc" explain <<<"$log"
has "module load cudnn/5.1"
expect_rc 0 env LD_LIBRARY_PATH="$FAKES/5.0.5/lib64" LD_AUDIT="$("$cc" shim-path)" "$t/apps/tf2016"
has "cuDNN 5110 from $FAKES/5.1.10/lib64/libcudnn.so.5"
if [[ -x $lmod_cmd ]]; then
  "$cc" modulefiles --format lua -o "$t/modules/lua" >/dev/null
  app_modules "$t/modules"
  lmod "$p" load cudnn/5.0 tensorflow/1.0 || true
  has "$misfit"
fi
