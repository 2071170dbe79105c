#!/usr/bin/env bash
# cmake --install lays files out as DESIGN.md says, and the installed tool finds its probe helper.
. "$(dirname "$0")/common.sh"
: "${BUILD_DIR:?}"

cmake --install "$BUILD_DIR" --prefix "$t/prefix" >/dev/null
for f in bin/cudnn-compat lib/cudnn-compat/cudnn-compat-probe etc/cudnn-compat/map.toml.example; do
  [[ -e $t/prefix/$f ]] || fail "install lacks $f"
done
out=$("$t/prefix/bin/cudnn-compat" probe "$FAKES/6.0.21/lib64")
has "cuDNN 6.0.21 for CUDA 8.0 (reported by the library)"
sed "s|/opt/cudnn|$FAKES|" "$t/prefix/etc/cudnn-compat/map.toml.example" >"$t/example.toml"
expect_rc 0 "$t/prefix/bin/cudnn-compat" map validate "$t/example.toml"
