# Issue 20, item 4: the memo is keyed by the file's identity, never by its name. The user's own copy
# of FAKE 9.0.0 (first on the path, 9.1 required) is decided once: the map's 9.1.0. Then it is
# rewritten in place with its own bytes (the same inode and size: only the times tell), given the
# bytes of FAKE 9.1.0 in place, and put back by a rename, as pip installs; each time the next
# process probes it again and gets the answer of what it is now - the user's copy kept while it is a
# 9.1.0. An edited map is decided anew too. Under LD_AUDIT and LD_PRELOAD. (The landed shim probed
# every time; the control fails there.)
source "$(dirname "$0")/common.sh"
command -v strace >/dev/null || skip "strace is not installed (scripts/deps.sh installs it)"
memo_setting
lib=$t/own/lib64/libcudnn.so.9.0.0
settle

# decided WANT PROBED: the client got WANT; the decision probed $lib (yes) or started nothing (no).
decided() {
  started $mode "$t/family" libcudnn.so.9
  has "loaded $1"
  lacks "cudnn-compat:"
  if [[ $2 == yes ]]; then
    grep -q "cudnn-compat-probe\", \[[^]]*\"$t/own/lib64/libcudnn.so.9\"" <<<"$trace" ||
      fail "$mode, $case: $t/own/lib64/libcudnn.so.9 was not probed:"$'\n'"$trace"
  else
    [[ $started == 0 ]] || fail "$mode, $case: $started processes started:"$'\n'"$trace"
  fi
}
map_answer=$FAKES/9.1.0/lib64/libcudnn.so.9 own_answer=$t/own/lib64/libcudnn.so.9

for mode in audit preload; do
  rm -rf "$memo"
  case=control && decided "$map_answer" yes && decided "$map_answer" no
  case=same-bytes
  was=$(stat -c '%i %s' "$lib")
  cp "$lib" "$t/bytes" && cat "$t/bytes" >"$lib"
  [[ $(stat -c '%i %s' "$lib") == "$was" ]] || fail "the rewrite changed the inode or the size"
  settle
  decided "$map_answer" yes && decided "$map_answer" no
  case=in-place
  for f in "$t"/own/lib64/*.so.9.0.0; do
    b=${f##*/}
    cat "$FAKES/9.1.0/lib64/${b%.9.0.0}.9.1.0" >"$f"
  done
  [[ $(stat -c %i "$lib") == "${was% *}" ]] || fail "the in-place copy made a new inode"
  settle
  decided "$own_answer" yes && decided "$own_answer" no
  case=renamed
  for f in "$t"/own/lib64/*.so.9.0.0; do
    cp "$FAKES/9.0.0/lib64/${f##*/}" "$f.new" && mv "$f.new" "$f"
  done
  settle
  decided "$map_answer" yes && decided "$map_answer" no
  case=map-edited
  echo "# edited" >>"$CUDNN_COMPAT_MAP"
  settle
  decided "$map_answer" yes && decided "$map_answer" no
done
