#!/usr/bin/env bash
# DESTDIR staging, as packagers do: the files land under the staging root, none of them carries
# the staging path, and the tree works once moved to its final place.
. "$(dirname "$0")/common.sh"
DESTDIR=$t/stage cmake --install "$BUILD_DIR" --prefix /opt/cudnn-compat >/dev/null
for f in bin/cudnn-compat lib/cudnn-compat/libcudnn-compat.so lib/cudnn-compat/cudnn-compat-select \
  lib/cudnn-compat/cudnn-compat-probe share/cudnn-compat/lmod/SitePackage.lua \
  share/cudnn-compat/envmodules/siteconfig.tcl etc/cudnn-compat/map.toml.example; do
  [[ -f $t/stage/opt/cudnn-compat/$f ]] || fail "DESTDIR install lacks $f"
done
out=$(grep -rl "$t/stage" "$t/stage" || true)
[[ -z $out ]] || fail "files carry the staging path: $out"
mv "$t/stage/opt/cudnn-compat" "$t/final"
site_map >"$t/final/etc/cudnn-compat/map.toml"
expect_rc 0 "$t/final/bin/cudnn-compat" resolve libcudnn.so.5 --require 5.1
has "$FAKES/5.1.10/lib64/libcudnn.so.5"
