# The memo's answer rests on every library the probe loaded, not on libcudnn.so.9 alone. A user's
# copy of FAKE 9.1.0, first on the path with 9.1 required, is probed whole and kept, and the next
# process starts nothing. Then one of its sub-libraries is overwritten in place with FAKE 9.0.0's
# (a pip upgrade cut short, a copy by hand): the next process probes again, finds the family
# mixed and gets the map's whole 9.1.0, where the memo used to hand the mixed copy over (an
# outside tester's finding: CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH at cudnnCreate). The same
# for libcudnn_heuristic, which the dispatcher maps only at cudnnCreate: the memo rests on it too.
# And once the copy is mended, the next process keeps it.
source "$(dirname "$0")/common.sh"
command -v strace >/dev/null || skip "strace is not installed (scripts/deps.sh installs it)"
memo_setting
for mode in audit preload; do
  rm -rf "$memo" "$t/own"
  cp -a "$FAKES/9.1.0" "$t/own"
  settle
  started $mode "$t/family" libcudnn.so.9
  has "loaded $t/own/lib64/libcudnn.so.9"
  started $mode "$t/family" libcudnn.so.9
  has "loaded $t/own/lib64/libcudnn.so.9"
  [[ $started == 0 ]] || fail "$mode: the second process started $started:"$'\n'"$trace"
  cat "$FAKES/9.0.0/lib64/libcudnn_ops.so.9.0.0" >"$t/own/lib64/libcudnn_ops.so.9.1.0"
  settle
  started $mode "$t/family" libcudnn.so.9
  has "loaded $FAKES/9.1.0/lib64/libcudnn.so.9"
  ((started > 0)) || fail "$mode: the mixed copy was taken from the memo:"$'\n'"$out"
  # Mended, it is the user's own whole 9.1.0 again: the answer that passed it over rested on the
  # sub-libraries its failed check had mapped.
  started $mode "$t/family" libcudnn.so.9
  [[ $started == 0 ]] || fail "$mode: the passed-over copy was not remembered:"$'\n'"$trace"
  cat "$FAKES/9.1.0/lib64/libcudnn_ops.so.9.1.0" >"$t/own/lib64/libcudnn_ops.so.9.1.0"
  settle
  started $mode "$t/family" libcudnn.so.9
  has "loaded $t/own/lib64/libcudnn.so.9"

  rm -rf "$memo" "$t/own"
  cp -a "$FAKES/9.1.0" "$t/own"
  settle
  started $mode "$t/family" libcudnn.so.9
  started $mode "$t/family" libcudnn.so.9
  [[ $started == 0 ]] || fail "$mode: the second process started $started:"$'\n'"$trace"
  cat "$FAKES/9.0.0/lib64/libcudnn_heuristic.so.9.0.0" >"$t/own/lib64/libcudnn_heuristic.so.9.1.0"
  settle
  started $mode "$t/family" libcudnn.so.9
  ((started > 0)) || fail "$mode: the memo did not look at libcudnn_heuristic:"$'\n'"$out"
done
