# A map's release whose library does not load (cut short) is passed over by the shim ("does not
# load ... no installed cuDNN fits"): resolve named it with exit 0 while the process kept the
# loader's own (helper 97). resolve passes it over too, says so, and the next place of the same
# release still serves.
source "$(dirname "$0")/common.sh"
mkdir -p "$t/cut"
cp -a "$FAKES/9.23.0/lib64/." "$t/cut/"
rm "$t/cut/libcudnn.so.9.23.0"
head -c 100 "$FAKES/9.23.0/lib64/libcudnn.so.9.23.0" >"$t/cut/libcudnn.so.9.23.0"
entries "9.1.0:$FAKES/9.1.0/lib64" "9.23.0:$t/cut" >"$t/map.toml"
export CUDNN_COMPAT_MAP=$t/map.toml
expect_rc 1 cc resolve libcudnn.so.9 --require 9.23
has "skipped: $t/cut/libcudnn.so.9 does not load"
lacks "-> $t/cut"
# A second place of 9.23.0 that loads is the answer.
{
  entries "9.1.0:$FAKES/9.1.0/lib64"
  printf '[[cudnn]]\nversion = "9.23.0"\nlib = ["%s", "%s"]\n' "$t/cut" "$FAKES/9.23.0/lib64"
} >"$t/map.toml"
expect_rc 0 cc resolve libcudnn.so.9 --require 9.23
has "libcudnn.so.9 -> $FAKES/9.23.0/lib64/libcudnn.so.9"
has "skipped: $t/cut/libcudnn.so.9 does not load"
