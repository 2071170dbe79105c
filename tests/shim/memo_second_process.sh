# Issue 20, item 4: a library the decision table does not know (a user's own copy of FAKE 9.0.0,
# first on LD_LIBRARY_PATH) costs the engine and a probe once per node: the second process that
# loads it starts no process at all, and gets the same answer - a redirect to the map's 9.1.0 when
# 9.1 is required, the user's copy kept when it fits. Under LD_AUDIT and LD_PRELOAD. Processes that
# never ask for cuDNN, and loads the table settles, do not touch the memo. (The landed shim started
# the engine and a probe in every process.)
source "$(dirname "$0")/common.sh"
command -v strace >/dev/null || skip "strace is not installed (scripts/deps.sh installs it)"
memo_setting
settle

for mode in audit preload; do
  rm -rf "$memo"  # both front ends make the same key: each starts cold
  for need in 9.1 ""; do
    export CUDNN_COMPAT_REQUIRE=$need
    want=$([[ -n $need ]] && echo "loaded $FAKES/9.1.0/lib64/libcudnn.so.9" ||
      echo "loaded $t/own/lib64/libcudnn.so.9")
    started $mode "$t/family" libcudnn.so.9
    has "$want"
    grep -q 'cudnn-compat-probe' <<<"$trace" || fail "$mode need=$need: the first process probed nothing:"$'\n'"$trace"
    for second in 2 3; do
      started $mode "$t/family" libcudnn.so.9
      has "$want"
      lacks "cudnn-compat:"
      [[ $started == 0 ]] || fail "$mode need=$need: process $second started $started processes:"$'\n'"$trace"
    done
  done
done
ls "$memo"/*.memo >/dev/null || fail "no memo entry in $memo"

# A warm process looks at each file once (at 10,000 ranks every repeat is 10,000 metadata
# operations on the shared file system): the loader's file one stat, the map one lstat, and the
# table and the memo entry read to the size fstat gave, with no read past it.
export CUDNN_COMPAT_REQUIRE=9.1
for mode in audit preload; do
  expect_rc 0 strace -f -qq -e trace=%file,read -o "$t/files" -E "LD_${mode^^}=$SHIM" "$t/family" libcudnn.so.9
  looks=$(grep -cE "(stat|access)[a-z0-9]*\\(AT_FDCWD, \"$t/own/lib64/libcudnn.so.9\"" "$t/files" || true)
  [[ $looks == 1 ]] || fail "$mode: the loader's file looked at $looks times:"$'\n'"$(<"$t/files")"
  looks=$(grep -cE "(stat|access)[a-z0-9]*\\(AT_FDCWD, \"$CUDNN_COMPAT_MAP\"" "$t/files" || true)
  [[ $looks == 1 ]] || fail "$mode: the map looked at $looks times:"$'\n'"$(<"$t/files")"
  ! grep -E 'read\([0-9]+, "", [0-9]+\) += 0' "$t/files" || fail "$mode: a read past a file's end:"$'\n'"$(<"$t/files")"
  # The table knows no row of the loader's file: what the node's GPUs and driver are cannot change
  # that, so the node file is not read (the memo entry's stat of it remains).
  ! grep -E 'open[a-z]*\(.*/node-[^/"]*"' "$t/files" || fail "$mode: the node file read for a file the table does not know:"$'\n'"$(<"$t/files")"
done

# What pays nothing new: a process that never asks for cuDNN, and a load the table settles (the
# loader finds the map's own 9.0.0): neither looks at the memo.
export CUDNN_COMPAT_REQUIRE=9.1
for mode in audit preload; do
  for run in "env LD_LIBRARY_PATH=$FAKES/9.0.0/lib64 $t/family libcudnn.so.9" "/bin/true"; do
    rm -rf "$memo"
    expect_rc 0 strace -f -qq -e trace=%file,fcntl -o "$t/files" env LD_${mode^^}=$SHIM $run
    ! grep -F "$XDG_RUNTIME_DIR" "$t/files" || fail "$mode: '$run' looked at the memo"
    [[ ! -e $memo ]] || fail "$mode: '$run' made the memo directory"
  done
done
