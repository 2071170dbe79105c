# Without /proc (a chroot, a sandbox: issue 27 item 13) the shim reads CUDNN_COMPAT_*, the loader's
# LD_LIBRARY_PATH and AT_SECURE as ld.so handed them to its constructor, and finds its own place
# from the LD_AUDIT or LD_PRELOAD entry that named it: the installed, moved tree redirects the
# tf2016 client (FAKE 5.0.5 first, built with 5.1.3) to 5.1.10 from the map under its etc/, from
# the decision table and from the engine, under both front ends. The shim of main ignored every
# CUDNN_COMPAT_* there (AT_SECURE unknown: taken as set) and could not find its engine.
source "$(dirname "$0")/common.sh"
deployed
tf2016_client
fake_map 5.0.5 5.1.10 >"$map"
without_proc test ! -e /proc/self/maps || fail "/proc is still there"
for table in yes no; do
  table_state $table
  for front in AUDIT PRELOAD; do
    expect_rc 0 without_proc env LD_LIBRARY_PATH="$FAKES/5.0.5/lib64" CUDNN_COMPAT_REQUIRE=5.1.3 \
      "LD_$front=$SHIM" "$t/tf2016"
    has "$redirected"
    lacks "cudnn-compat:"
  done
done
