# A FIFO left where a mapped release's library was (a botched copy, a hostile user's plant in a
# directory of their own) costs no process the deadline: the engine's probe, which loads the file
# with ld.so's blocking open, asks what the file is first and says it is no library. Before, the
# probe waited on the FIFO until the engine's deadline ended it, in every process, since an answer
# that ran out of time is never remembered (an outside tester's finding). Under both front ends.
source "$(dirname "$0")/common.sh"
family_client
for v in 9.0.0 9.1.0; do
  mkdir -p "$t/$v" && cp -a "$FAKES/$v/lib64" "$t/$v/"
done
printf 'schema = 1\n[[cudnn]]\nversion = "9.1.0"\nlib = "%s"\n' "$t/9.1.0/lib64" >"$t/map.toml"
expect_rc 0 "$CUDNN_COMPAT" map validate "$t/map.toml"
rm "$t/9.1.0/lib64/libcudnn.so.9.1.0" && mkfifo "$t/9.1.0/lib64/libcudnn.so.9.1.0"
export LD_LIBRARY_PATH=$t/9.0.0/lib64 CUDNN_COMPAT_REQUIRE=9.1 CUDNN_COMPAT_TIMEOUT=20000
for mode in audit preload; do
  expect_rc_within 0 5 env LD_${mode^^}=$SHIM "$t/family" libcudnn.so.9
  has "loaded $t/9.0.0/lib64/libcudnn.so.9"
  has "libcudnn.so.9 does not load"
done
