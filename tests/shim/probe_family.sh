# The probe sees a candidate as the shim will hand it over: its family from its own directory.
# FAKE 9.1.0 laid out as NVIDIA ships it (sub-libraries as .so.9 only, no exact-version names) is
# the fit; FAKE 9.0.0 on LD_LIBRARY_PATH holds the names its dispatcher falls back to. A probe that
# kept the job's path would load 9.0.0's sub-libraries, fail 9.1.0's version checks and keep 9.0.0.
source "$(dirname "$0")/common.sh"
family_client
mkdir -p "$t/9.1.0/lib64"
cp -L "$FAKES/9.1.0/lib64/"libcudnn*.so.9 "$t/9.1.0/lib64/"
printf 'schema = 1\n[[cudnn]]\nversion = "9.1.0"\nlib = "%s"\nmodule = "cudnn/9.1"\n' \
  "$t/9.1.0/lib64" >"$t/map.toml"
export LD_LIBRARY_PATH=$FAKES/9.0.0/lib64 CUDNN_COMPAT_REQUIRE=9.1

expect_rc 0 "$t/family" libcudnn.so.9
has "version 90000"

expect_rc 0 "$CUDNN_COMPAT" probe "$t/9.1.0/lib64"
has "9.1.0"
lacks "did not load"

for mode in audit preload; do
  expect_rc 0 $mode "$t/family" libcudnn.so.9 cudnnGraphVersionCheck cudnnOpsVersionCheck \
    cudnnCnnVersionCheck cudnnAdvVersionCheck
  has "version 90100"
  has "cudnnAdvVersionCheck = 0"
  count "loaded $t/9.1.0/lib64/libcudnn" 5
  lacks "$FAKES/9.0.0"
done

# A family that is mixed in its own directory is no answer: the probe runs the version checks.
cp -L "$FAKES/9.0.0/lib64/libcudnn_ops.so.9" "$t/9.1.0/lib64/"
expect_rc 0 "$CUDNN_COMPAT" probe "$t/9.1.0/lib64"
has "its sub-libraries do not load as one release (cudnnOpsVersionCheck returned 1002)"
