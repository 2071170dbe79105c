#!/usr/bin/env bash
# cmake --install lays files out as DESIGN.md says, and the installed tool finds its helpers.
. "$(dirname "$0")/common.sh"
: "${BUILD_DIR:?}"

cmake --install "$BUILD_DIR" --prefix "$t/prefix" >/dev/null
for f in bin/cudnn-compat lib/cudnn-compat/cudnn-compat-probe lib/cudnn-compat/cudnn-compat-select \
  lib/cudnn-compat/libcudnn-compat.so etc/cudnn-compat/map.toml.example; do
  [[ -e $t/prefix/$f ]] || fail "install lacks $f"
done
out=$("$t/prefix/bin/cudnn-compat" probe "$FAKES/6.0.21/lib64")
has "cuDNN 6.0.21 for CUDA 8.0 (reported by the library)"
sed "s|/opt/cudnn|$FAKES|" "$t/prefix/etc/cudnn-compat/map.toml.example" >"$t/example.toml"
expect_rc 0 "$t/prefix/bin/cudnn-compat" map validate "$t/example.toml"

# The installed shim finds its installed engine, and the engine the map under the prefix's etc/:
# a redirect works from the prefix alone, with no CUDNN_COMPAT_MAP to point anywhere.
printf 'schema = 1\n[[cudnn]]\nversion = "5.1.10"\nlib = "%s"\n' "$FAKES/5.1.10/lib64" \
  >"$t/prefix/etc/cudnn-compat/map.toml"
expect_rc 0 env CUDNN_COMPAT_REQUIRE=5.1 \
  LD_LIBRARY_PATH="$FAKES/5.0.5/lib64" LD_AUDIT="$("$t/prefix/bin/cudnn-compat" shim-path)" \
  python3 -c 'import ctypes; print("cuDNN", ctypes.CDLL("libcudnn.so.5").cudnnGetVersion())'
has "cuDNN 5110"
