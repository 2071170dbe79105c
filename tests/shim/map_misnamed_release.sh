# A map entry that misnames its release (5.2.0 written over the FAKE 5.1.10) is the release its
# library reports, to the shim with and without the decision table and to resolve alike: a need
# of 5.1 is handed it, a need of 5.2 is not (an outside tester's finding: resolve took the map's
# word, and the engine never asked a library the map's word did not fit).
source "$(dirname "$0")/common.sh"
tf2016_client
map=$CUDNN_COMPAT_MAP
printf 'schema = 1\n[policy]\nrule = "nvidia"\n[[cudnn]]\nversion = "5.2.0"\nlib = "%s"\nmodule = "cudnn/5.1"\n' \
  "$FAKES/5.1.10/lib64" >"$map"
for table in yes no; do
  table_state $table
  for mode in audit preload; do
    CUDNN_COMPAT_REQUIRE=5.1 expect_rc 0 $mode "$t/tf2016"
    has "cuDNN 5110 from $FAKES/5.1.10/lib64/libcudnn.so.5"
    lacks "cudnn-compat:"
    CUDNN_COMPAT_REQUIRE=5.2 expect_rc 1 $mode "$t/tf2016"
    lacks "cuDNN 5110"
    has "no installed cuDNN fits (installed: 5.1.10 (cudnn/5.1))"
  done
done
expect_rc 0 "$CUDNN_COMPAT" resolve libcudnn.so.5 --require 5.1
has "libcudnn.so.5 -> $FAKES/5.1.10/lib64/libcudnn.so.5"
has "as its library reports it: the map says 5.2.0 but $FAKES/5.1.10/lib64/libcudnn.so.5 reports 5.1.10"
expect_rc 1 "$CUDNN_COMPAT" resolve libcudnn.so.5 --require 5.2
has "no    5.1.10 (module cudnn/5.1)"
