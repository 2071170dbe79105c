# Report-only per job by hand (sbatch --export=...,CUDNN_COMPAT_USAGE=...): a misspelt value turned
# real redirects on with no word (outside test 1203a, F10); it now counts as report-only, said in
# one line. With CUDNN_COMPAT_DEBUG=1 the engine's line named a hand-over that report-only did not
# make (F11); a second line now says the loader's choice loads. A decision that speaks as well
# shares the slip's line: at most one line per load.
source "$(dirname "$0")/common.sh"
twice_client
fake_map 5.0.5 5.1.10 >"$t/map.toml"
export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 CUDNN_COMPAT_REQUIRE=5.1.3
for table in engine table; do
  [[ $table == table ]] && "$CUDNN_COMPAT" map validate >/dev/null
  for front in LD_AUDIT LD_PRELOAD; do
    for word in report_only REPORT-ONLY 'report-only ' $'report-only\n' off; do
      out=$(env "$front=$SHIM" CUDNN_COMPAT_USAGE="$word" "$t/twice" 2>&1)
      has "cuDNN 5005 same"
      has "cudnn-compat: CUDNN_COMPAT_USAGE holds a value other than report-only, the one it takes; taken as report-only"
      count "cudnn-compat:" 1
    done
    # A decision that speaks too (a requirement of another major): one line holds both.
    out=$(env "$front=$SHIM" CUDNN_COMPAT_USAGE=report_only CUDNN_COMPAT_REQUIRE=9.1 "$t/twice" 2>&1)
    has "cuDNN 5005 same"
    has "taken as report-only: every cuDNN load is the loader's own choice; libcudnn.so.5: needs 9.1"
    count "cudnn-compat:" 1
    out=$(env "$front=$SHIM" CUDNN_COMPAT_USAGE=report-only "$t/twice" 2>&1)
    has "cuDNN 5005 same"
    count "cudnn-compat:" 0
    # Unset and empty: the shim as usual.
    out=$(env "$front=$SHIM" CUDNN_COMPAT_USAGE= "$t/twice" 2>&1)
    has "cuDNN 5110 same"
    count "cudnn-compat:" 0
    out=$(env "$front=$SHIM" CUDNN_COMPAT_USAGE=report-only CUDNN_COMPAT_DEBUG=1 "$t/twice" 2>&1)
    has "cuDNN 5005 same"
    has "cudnn-compat: libcudnn.so.5: report-only: $FAKES/5.1.10/lib64/libcudnn.so.5 is not handed over; the loader's own choice loads"
  done
done
