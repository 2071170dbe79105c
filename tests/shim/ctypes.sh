# A loader client we did not write: Python's ctypes.CDLL, by bare name and by the absolute path of
# a release that does not fit.
source "$(dirname "$0")/common.sh"
command -v python3 >/dev/null || skip "no python3"
fake_map 5.0.5 5.1.10 >"$t/map.toml"
export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 CUDNN_COMPAT_REQUIRE=5.1
for name in libcudnn.so.5 "$FAKES/5.0.5/lib64/libcudnn.so.5"; do
  py="import ctypes; print('cuDNN', ctypes.CDLL('$name').cudnnGetVersion())"
  expect_rc 0 python3 -c "$py"
  has "cuDNN 5005"
  for mode in audit preload; do
    expect_rc 0 $mode python3 -c "$py"
    has "cuDNN 5110"
  done
done
