# Issues 20 and 21 together: a decision the memo recalls writes its usage record as the engine's
# does. The user's own FAKE 9.0.0 (unknown to the decision table) is first on the path and 9.1 is
# required: the first process asks the engine, the second and third start no process (the memo
# answers) - and each of the three appends exactly one record, with the fields of the decision
# (the memo keeps the engine's whole answer). Under LD_AUDIT and LD_PRELOAD.
source "$(dirname "$0")/common.sh"
command -v strace >/dev/null || skip "strace is not installed (scripts/deps.sh installs it)"
memo_setting
mkdir "$t/spool"
printf '[usage]\nmode = "record"\nto = "%s"\n' "$t/spool" >>"$CUDNN_COMPAT_MAP"
expect_rc 0 "$CUDNN_COMPAT" map validate "$CUDNN_COMPAT_MAP"
settle

for mode in audit preload; do
  rm -rf "$memo" "$t"/spool/*
  for process in 1 2 3; do
    started $mode "$t/family" libcudnn.so.9
    has "loaded $FAKES/9.1.0/lib64/libcudnn.so.9"
    lacks "cudnn-compat:"
    if [[ $process == 1 ]]; then
      ((started > 0)) || fail "$mode: the first process started nothing:"$'\n'"$trace"
    else
      [[ $started == 0 ]] || fail "$mode: process $process started $started processes (no memo):"$'\n'"$trace"
    fi
    out=$(cat "$t"/spool/*.usage 2>/dev/null || true)
    count "U1 t=" "$process"
  done
  count " need=9.1 cuda=- from=env loader=$t/own/lib64/libcudnn.so.9 lrel=9.0.0 lsrc=user lmod=- " 3
  count " got=$FAKES/9.1.0/lib64/libcudnn.so.9 rel=9.1.0 src=module mod=cudnn/9.1.0 verdict=redirected mode=record " 3
done
