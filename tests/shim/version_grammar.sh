# One grammar of versions, one answer (issue 27 item 9): for each CUDNN_COMPAT_REQUIRE a user may
# write, the shim - from the decision table and from the engine, under both front ends, installed
# and moved - loads what `resolve` names, or keeps the ordinary load with one line where resolve
# refuses the text. FAKE 5.0.5 is first on the path; the map has 5.0.5 and 5.1.10. The shim of main
# read 5.0.99999 as 5.1 (its table's key collided) and accepted 5.0.100000 and numbers that
# overflow, which the engine and resolve refuse.
source "$(dirname "$0")/common.sh"
deployed
tf2016_client
fake_map 5.0.5 5.1.10 >"$map"
kept="Loaded runtime CuDNN library: 5005"
# require|what resolve says|what the shim loads
cases=(
  "5.0.99999|$FAKES/5.0.5/lib64/libcudnn.so.5|$kept"
  "5.1|$FAKES/5.1.10/lib64/libcudnn.so.5|$redirected"
  " v5.1.3 |$FAKES/5.1.10/lib64/libcudnn.so.5|$redirected"
  "05.01.00003|$FAKES/5.1.10/lib64/libcudnn.so.5|$redirected"
  "5.0.100000|is not a version|$kept"
  "5.18446744073709551617|is not a version|$kept"
  "5.1.2.3.4|is not a version|$kept"
)
for c in "${cases[@]}"; do
  IFS='|' read -r require resolved loaded <<<"$c"
  rc=0 && [[ $resolved == "is not a version" ]] && rc=2
  expect_rc $rc "$CUDNN_COMPAT" resolve libcudnn.so.5 --require "$require"
  has "$resolved"
done
for table in yes no; do
  table_state $table
  for front in AUDIT PRELOAD; do
    for c in "${cases[@]}"; do
      IFS='|' read -r require resolved loaded <<<"$c"
      rc=0 && [[ $loaded == "$kept" ]] && rc=1
      expect_rc $rc env LD_LIBRARY_PATH="$FAKES/5.0.5/lib64" CUDNN_COMPAT_REQUIRE="$require" \
        "LD_$front=$SHIM" "$t/tf2016"
      has "$loaded"
      if [[ $resolved == "is not a version" ]]; then
        count "cudnn-compat:" 1
        has "is not a version"
      fi
    done
  done
done
