# A host that sets its process title (setproctitle: PostgreSQL, Redis, Ray, Celery) overwrites
# the strings /proc/self/environ shows before it loads cuDNN (issue 27 item 7). The shim holds
# LD_LIBRARY_PATH as ld.so read it at the start, so the loader's pick is still known: FAKE 9.0.0
# first on the path is redirected to 9.1.0 when 9.1 is required, and kept when 9.0 is (with 9.1.0
# newer in the map) - from the table and from the engine, under both front ends, installed and
# moved. The shim of main lost the path: it judged the system's cuDNN (or none) instead, and kept
# the misfit or replaced the fitting one, depending on what ld.so.cache holds.
source "$(dirname "$0")/common.sh"
deployed
retitled_program
fake_map 9.0.0 9.1.0 >"$map"
for table in yes no; do
  table_state $table
  for front in AUDIT PRELOAD; do
    for need in 9.1:90100:9.1.0 9.0:90000:9.0.0; do
      IFS=: read -r require number release <<<"$need"
      expect_rc 0 env LD_LIBRARY_PATH="$FAKES/9.0.0/lib64" CUDNN_COMPAT_REQUIRE=$require \
        "LD_$front=$SHIM" "$t/retitled"
      lacks "did not overwrite"
      has "cuDNN $number from $FAKES/$release/lib64/libcudnn.so.9"
    done
  done
done
