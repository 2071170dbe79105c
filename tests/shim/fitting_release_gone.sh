# A release that fits by the map's word whose directory lost its library after the map was
# checked (a module removed): the shim said "no installed cuDNN fits (installed: ..., 9.23.0 ...).
# Ask the admins for cuDNN 9.22", which contradicts itself (helper 94). It now names the release
# that would fit, the directory that lacks the file, and that the map is out of date; resolve too.
source "$(dirname "$0")/common.sh"
family_client
cp -r "$FAKES/9.23.0" "$t/9.23.0"
fake_map 9.1.0 >"$t/map.toml"
printf '[[cudnn]]\nversion = "9.23.0"\nlib = "%s"\nmodule = "cudnn/9.23"\n' "$t/9.23.0/lib64" >>"$t/map.toml"
"$CUDNN_COMPAT" map validate "$t/map.toml" >/dev/null
rm -r "$t/9.23.0"
export LD_LIBRARY_PATH=$FAKES/9.1.0/lib64 CUDNN_COMPAT_REQUIRE=9.22
for mode in audit preload; do
  expect_rc 0 $mode "$t/family" libcudnn.so.9
  has "version 90100"
  has "9.23.0 (cudnn/9.23) would fit, but $t/9.23.0/lib64 holds no libcudnn.so.9; loading as usual. The map is out of date: ask the admins to run cudnn-compat map validate"
  lacks "no installed cuDNN fits"
  count "cudnn-compat:" 1
done
expect_rc 1 "$CUDNN_COMPAT" resolve libcudnn.so.9
has "skipped: $t/9.23.0/lib64 (listed for cuDNN 9.23.0) holds no file for libcudnn.so.9"
has "The map is out of date: ask the admins to run cudnn-compat map validate."
lacks "Ask the admins for cuDNN 9.22"
