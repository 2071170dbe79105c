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
  # answer_ahead TEXT: TEXT put before the entry's answer lines (bytes as printf writes them).
  answer_ahead() {
    python3 -c 'import sys; p, add = sys.argv[1], sys.argv[2].encode().decode("unicode_escape").encode("latin-1")
d = open(p, "rb").read(); open(p, "wb").write(d.replace(b"\nanswer\n", b"\nanswer\n" + add, 1))' "$entry" "$1"
  }
  for case in writable link corrupt truncated other-key nul; do
    reset
    case $case in
      writable) chmod 666 "$entry" ;;
      link) mv "$entry" "$t/elsewhere" && ln -s "$t/elsewhere" "$entry" ;;
      corrupt) head -c 300 /dev/urandom >"$entry" ;;
      truncated) head -c "$(($(stat -c %s "$entry") / 2))" "$t/pristine/${entry##*/}" >"$entry" ;;
      other-key) cp "$t/other-entry" "$entry" ;;
      nul) answer_ahead 'say x\x00y\n' ;;  # no text the engine writes: read, it hid the 'use' line
    esac
    decided_right some
    decided_right 0  # the next decision replaced it
  done
  # An answer of many lines (an entry edited by hand) says one line a decision.
  reset
  answer_ahead 'say cudnn-compat: one\nsay cudnn-compat: two\nsay cudnn-compat: three\n'
  started $mode "$t/family" libcudnn.so.9
  has "loaded $FAKES/9.1.0/lib64/libcudnn.so.9"
  [[ $(grep -c 'cudnn-compat:' <<<"$out") == 1 ]] || fail "$mode: more than one line:"$'\n'"$out"
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
