# A map that became huge after it was validated (truncated to 4 GB, sparse) is never read in the
# host: its tables' stamp names another size, so nothing of it is read to compare, and the engine
# refuses a map over SITE_FILE_MAX before reading it. The load carries on as the loader does it, with
# one line, well within the deadline (reading it took over 30 s in every process before).
source "$(dirname "$0")/common.sh"
tf2016_setting
"$CUDNN_COMPAT" map validate "$t/map.toml" >/dev/null
compile load <<<"$load5_main
int main(void) { return load5() ? 0 : 1; }"
truncate -s 4G "$t/map.toml" || skip "no sparse 4 GB file here"
for mode in audit preload; do
  expect_rc_within 0 5 env CUDNN_COMPAT_TIMEOUT=30 LD_${mode^^}=$SHIM "$t/load"
  has "cuDNN 5005 from $FAKES/5.0.5/lib64/libcudnn.so.5"
  has "4294967296 bytes; a map is at most 16777216"
  [[ $(grep -c cudnn-compat <<<"$out") == 1 ]] || fail "expected one line; output:"$'\n'"$out"
done
