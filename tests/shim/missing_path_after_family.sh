# A path that does not exist stays a failing load, also once a family of its major is loaded: the
# shim of e6e279c handed /nonexist/libcudnn.so.5 (and a relative path to nothing) the loaded
# dispatcher, so a program that tries a path to learn whether it is there got a false yes (an
# outside tester's finding). A path that is there, to another release, still gets the family's.
source "$(dirname "$0")/common.sh"
paths_client
fake_map 5.0.5 5.1.10 >"$t/map.toml"
export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 CUDNN_COMPAT_REQUIRE=5.1
for mode in audit preload; do
  expect_rc 0 $mode "$t/paths" libcudnn.so.5 /nonexist/libcudnn.so.5 nonexist/libcudnn.so.5 \
    "$FAKES/5.0.5/lib64/libcudnn.so.5"
  has "libcudnn.so.5: cuDNN 5110"
  has "/nonexist/libcudnn.so.5: fails"
  grep -qx "nonexist/libcudnn.so.5: fails" <<<"$out" || fail "a relative path to nothing loaded: $out"
  has "$FAKES/5.0.5/lib64/libcudnn.so.5: cuDNN 5110"
done
