# cuDNN 9 maps libcudnn_heuristic and libcudnn_engines_* only at first use (cudnnCreate on a GPU),
# and they have no version check the probe could run. A user's copy of FAKE 9.1.0 whose
# libcudnn_heuristic.so.9 is FAKE 9.0.0's file (libcudnn_heuristic.so.9.0.0, copied in by hand)
# passed the probe, was kept, and failed at cudnnCreate with CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH
# (an outside tester's finding). The probe now names the file the dispatcher would take and its
# release; the shim gets the map's whole 9.1.0 in the first process and in the next (the memo).
source "$(dirname "$0")/common.sh"
command -v strace >/dev/null || skip "strace is not installed (scripts/deps.sh installs it)"
memo_setting
rm -rf "$t/own"
cp -a "$FAKES/9.1.0" "$t/own"
rm "$t/own/lib64/libcudnn_heuristic.so.9.1.0" "$t/own/lib64/libcudnn_heuristic.so.9"
cp "$FAKES/9.0.0/lib64/libcudnn_heuristic.so.9.0.0" "$t/own/lib64/"
ln -s libcudnn_heuristic.so.9.0.0 "$t/own/lib64/libcudnn_heuristic.so.9"
settle

expect_rc 3 "$t/family" libcudnn.so.9 cudnnCreate
has "cudnnCreate = 1002"
expect_rc 0 "$CUDNN_COMPAT" probe "$t/own/lib64"
has "its sub-libraries are not one release: $t/own/lib64/libcudnn_heuristic.so.9 is libcudnn_heuristic.so.9.0.0, of cuDNN 9.0.0, the library 9.1.0"

for mode in audit preload; do
  rm -rf "$memo"
  for process in first next; do
    started $mode "$t/family" libcudnn.so.9 cudnnCreate
    has "cudnnCreate = 0"
    has "loaded $FAKES/9.1.0/lib64/libcudnn_heuristic.so.9"
    lacks "$t/own/"
  done
done

# created DIR WANT: with no memo and DIR first on the path, the client's cudnnCreate succeeds
# under both front ends, holding WANT/libcudnn.so.9.
created() {
  for mode in audit preload; do
    rm -rf "$memo"
    LD_LIBRARY_PATH=$1 started $mode "$t/family" libcudnn.so.9 cudnnCreate
    has "cudnnCreate = 0"
    has "loaded $2/libcudnn.so.9"
  done
}

# A file the dispatcher never loads is no ground: a whole 9.1.0 copy with a stray FAKE 9.20.0
# libcudnn_engines_tensor_ir (9.1.0's dispatcher loads none) is kept (outside test 2, F2).
rm -rf "$t/whole"
cp -a "$FAKES/9.1.0" "$t/whole"
cp -a "$FAKES/9.20.0/lib64/"libcudnn_engines_tensor_ir.so* "$t/whole/lib64/"
settle
created "$t/whole/lib64" "$t/whole/lib64"

# An empty sub-library file (a copy cut short) fails only at cudnnCreate (1008): the family is no
# answer, and where nothing else fits the one line says why (outside test 2, F4 and F8).
rm -rf "$t/cut"
cp -a "$FAKES/9.1.0" "$t/cut"
: >"$t/cut/lib64/libcudnn_heuristic.so.9.1.0"
fake_map 9.0.0 >"$t/only-9.0.0.toml"
settle
created "$t/cut/lib64" "$FAKES/9.1.0/lib64"
for mode in audit preload; do
  rm -rf "$memo"
  LD_LIBRARY_PATH=$t/own/lib64 CUDNN_COMPAT_MAP=$t/only-9.0.0.toml expect_rc 3 $mode "$t/family" \
    libcudnn.so.9 cudnnCreate
  count "cudnn-compat:" 1
  has "$t/own/lib64/libcudnn.so.9 does not load (its sub-libraries are not one release: $t/own/lib64/libcudnn_heuristic.so.9 is libcudnn_heuristic.so.9.0.0"
done
