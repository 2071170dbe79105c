# cuDNN 9, whose dispatcher asks for each sub-library by its exact release first: a program built
# with 9.1 finds FAKE 9.0.0 first on LD_LIBRARY_PATH; with the shim all of FAKE 9.1.0 is loaded.
source "$(dirname "$0")/common.sh"
family_client
fake_map 9.0.0 9.1.0 >"$t/map.toml"
export LD_LIBRARY_PATH=$FAKES/9.0.0/lib64:$FAKES/9.1.0/lib64 CUDNN_COMPAT_REQUIRE=9.1

expect_rc 0 "$t/family" libcudnn.so.9 cudnnGraphVersionCheck
has "version 90000"

for mode in audit preload; do
  expect_rc 0 $mode "$t/family" libcudnn.so.9 cudnnGraphVersionCheck cudnnOpsVersionCheck \
    cudnnCnnVersionCheck cudnnAdvVersionCheck
  has "version 90100"
  has "cudnnAdvVersionCheck = 0"
  count "loaded $FAKES/9.1.0/lib64/" 5
  lacks "9.0.0"
done
