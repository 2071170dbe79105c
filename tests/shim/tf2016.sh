# The problem this project exists for: a TensorFlow-2016-like program built with cuDNN 5.1.3 finds
# FAKE 5.0.5 first on LD_LIBRARY_PATH. Without the shim it dies with the 2016 message; with the shim
# (audit or preload) and FAKE 5.1.10 in the map it runs on 5.1.10.
source "$(dirname "$0")/common.sh"
tf2016_client
fake_map 5.0.5 5.1.10 >"$t/map.toml"
export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 CUDNN_COMPAT_REQUIRE=5.1.3

expect_rc 1 "$t/tf2016"
has "Loaded runtime CuDNN library: 5005 (compatibility version 5000) but source was compiled with 5103 (compatibility version 5100)."

for mode in audit preload; do
  expect_rc 0 $mode "$t/tf2016"
  has "cuDNN 5110 from $FAKES/5.1.10/lib64/libcudnn.so.5"
  lacks "cudnn-compat:"  # silent when all goes well

  CUDNN_COMPAT_DEBUG=1 expect_rc 0 $mode "$t/tf2016"
  has "cudnn-compat: libcudnn.so.5 -> $FAKES/5.1.10/lib64/libcudnn.so.5 (module 5.1.10; needs 5.1.3 from CUDNN_COMPAT_REQUIRE; 5.0.5 on LD_LIBRARY_PATH does not fit: before cuDNN 7 the minor version must match"

  CUDNN_COMPAT_DISABLE=1 expect_rc 1 $mode "$t/tf2016"
  has "Loaded runtime CuDNN library: 5005"
done
