# Issue 20, item 4: a memo entry or directory that is not the user's own - open to others' writes,
# a link, corrupt, cut short, another request's - is ignored without a line: the engine decides as
# if there were none, and the answer (the map's FAKE 9.1.0, for 9.1 required with the user's own
# copy of 9.0.0 first on the path) is still right. A damaged entry is replaced by the next decision;
# a directory that is not right is neither read nor written. Under LD_AUDIT and LD_PRELOAD. The
# control (a good memo answers with no process) fails on the landed shim.
source "$(dirname "$0")/common.sh"
command -v strace >/dev/null || skip "strace is not installed (scripts/deps.sh installs it)"
memo_setting
settle

for mode in audit preload; do
  rm -rf "$memo"
  case="control" && decided_right some && decided_right 0
  entry=$(ls "$memo"/*.memo)
  [[ $(wc -l <<<"$entry") == 1 ]] || fail "$mode: more than one entry: $entry"
  cp -a "$memo" "$t/pristine"
  # Another request's entry under this one's name: decided with another variable.
  CUDNN_COMPAT_CUDA=12 started $mode "$t/family" libcudnn.so.9
  other=$(ls "$memo"/*.memo | grep -vxF "$entry")
  [[ -n $other ]] || fail "$mode: the request with CUDNN_COMPAT_CUDA set left no entry of its own"
  cp "$other" "$t/other-entry"
  reset() { rm -rf "$memo" && cp -a "$t/pristine" "$memo"; }
  for case in writable link corrupt truncated other-key; do
    reset
    case $case in
      writable) chmod 666 "$entry" ;;
      link) mv "$entry" "$t/elsewhere" && ln -s "$t/elsewhere" "$entry" ;;
      corrupt) head -c 300 /dev/urandom >"$entry" ;;
      truncated) head -c "$(($(stat -c %s "$entry") / 2))" "$t/pristine/${entry##*/}" >"$entry" ;;
      other-key) cp "$t/other-entry" "$entry" ;;
    esac
    decided_right some
    decided_right 0  # the next decision replaced it
  done
  for case in dir-writable dir-link; do
    reset
    case $case in
      dir-writable) chmod 777 "$memo" ;;
      dir-link) mv "$memo" "$t/memo-elsewhere" && ln -s "$t/memo-elsewhere" "$memo" ;;
    esac
    decided_right some
    decided_right some  # nothing written there either
    rm -rf "$t/memo-elsewhere"
  done
  rm -rf "$t/pristine"
done
