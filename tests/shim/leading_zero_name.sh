# A name with a leading zero in a version number (libcudnn.so.05, libcudnn.so.5.01.10) is no
# cuDNN name: no release's file has one, and the loader, which matches names byte for byte, finds
# none. The shim read libcudnn.so.00005 as major 5 and handed over a 5.x release, so a load that
# fails without it succeeded (helper 104). The names that are a release's still get one.
source "$(dirname "$0")/common.sh"
paths_client
fake_map 5.0.5 5.1.10 >"$t/map.toml"
export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 CUDNN_COMPAT_REQUIRE=5.1
for mode in audit preload; do
  expect_rc 0 $mode "$t/paths" libcudnn.so.00005 libcudnn.so.05 libcudnn.so.5.01.10 libcudnn.so.5
  has "libcudnn.so.00005: fails"
  has "libcudnn.so.05: fails"
  has "libcudnn.so.5.01.10: fails"
  has "libcudnn.so.5: cuDNN 5110"
done
