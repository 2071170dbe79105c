# CUDNN_COMPAT_REPORT=1 in a report-only run, or with CUDNN_COMPAT_DISABLE=1: the loader's 9.1.0
# misses a requirement of 9.23 that the map's 9.23.0 meets, yet the report's next run said
# "nothing to change" (helper 92). It now says what report-only withheld, or that nothing was
# judged. Both front ends.
source "$(dirname "$0")/common.sh"
family_client
fake_map 9.1.0 9.23.0 >"$t/map.toml"
"$CUDNN_COMPAT" map validate "$t/map.toml" >/dev/null
export LD_LIBRARY_PATH=$FAKES/9.1.0/lib64 CUDNN_COMPAT_REQUIRE=9.23 CUDNN_COMPAT_REPORT=1
for mode in audit preload; do
  CUDNN_COMPAT_USAGE=report-only expect_rc 0 $mode "$t/family" libcudnn.so.9
  has "version 90100"
  has "cudnn-compat: report: next run: leave report-only (CUDNN_COMPAT_USAGE, the map's [usage] mode)   # the shim then hands over $FAKES/9.23.0/lib64/libcudnn.so.9"
  lacks "nothing to change"
  CUDNN_COMPAT_DISABLE=1 expect_rc 0 $mode "$t/family" libcudnn.so.9
  has "version 90100"
  has "cudnn-compat: report: next run: cudnn-compat doctor   # CUDNN_COMPAT_DISABLE=1: the shim judged no load"
  lacks "nothing to change"
  # Redirected as usual: nothing left to change.
  expect_rc 0 $mode "$t/family" libcudnn.so.9
  has "version 92300"
  has "next run: nothing to change"
done
