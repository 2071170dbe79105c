# Without /proc the shim finds its engine from the LD_AUDIT or LD_PRELOAD entry that named it; a
# host that sets its process title before it loads cuDNN overwrites that entry's string. The shim
# copies the entry when ld.so starts it, so the installed, moved tree still redirects FAKE 9.1.0
# first on the path to 9.23.0 for a 9.20 need, through the engine (no table), under both front
# ends. The shim of 92e0c0d said "cannot find its own directory" and kept 9.1.0 (an outside
# tester's finding).
source "$(dirname "$0")/common.sh"
deployed
retitled_program
fake_map 9.1.0 9.23.0 >"$map"
table_state no
for front in AUDIT PRELOAD; do
  expect_rc 0 without_proc env LD_LIBRARY_PATH="$FAKES/9.1.0/lib64" CUDNN_COMPAT_REQUIRE=9.20 \
    "LD_$front=$SHIM" "$t/retitled"
  lacks "cannot find its own directory"
  has "cuDNN 92300 from $FAKES/9.23.0/lib64/libcudnn.so.9"
done
