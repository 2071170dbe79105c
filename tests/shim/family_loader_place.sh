# The family rule with no map to name another place of the release: a sub-library the family's
# directory lacks (a dangling link, a loop) comes from where the loader's own search finds it when
# the file there is named for exactly the family's release (an outside tester's finding: the real
# cuDNN 9.19 aborted, "Invalid handle", where the loader alone found the same release in
# ld.so.cache); a file there named for another release is still refused, with one line.
source "$(dirname "$0")/common.sh"
family_client
mkdir -p "$t/copy" "$t/same" "$t/other"
cp -a "$FAKES/9.1.0/lib64/." "$t/copy/"
rm "$t/copy/libcudnn_heuristic.so.9.1.0"  # .so.9 now dangles
cp -a "$FAKES/9.1.0/lib64/"libcudnn_heuristic.so* "$t/same/"
cp -a "$FAKES/9.0.0/lib64/"libcudnn_heuristic.so* "$t/other/"
export CUDNN_COMPAT_MAP=$t/no-map.toml

# Without the shim the loader passes the dangling link over and finds the same release.
LD_LIBRARY_PATH=$t/same expect_rc 0 "$t/family" "$t/copy/libcudnn.so.9" cudnnCreate
has "loaded $t/same/libcudnn_heuristic.so.9"
for mode in audit preload; do
  LD_LIBRARY_PATH=$t/same CUDNN_COMPAT_DEBUG=1 expect_rc 0 $mode "$t/family" "$t/copy/libcudnn.so.9" cudnnCreate
  has "cudnnCreate = 0"
  has "loaded $t/same/libcudnn_heuristic.so.9"
  lacks "not in $t/copy"
  has "cudnn-compat: libcudnn_heuristic.so.9 -> $t/same/libcudnn_heuristic.so.9.1.0 (another place of cuDNN 9.1.0, which $t/copy lacks)"
done

# A loop where the file was: the same.
ln -sf loop-b "$t/copy/loop-a" && ln -sf loop-a "$t/copy/loop-b"
ln -sf loop-a "$t/copy/libcudnn_heuristic.so.9"
for mode in audit preload; do
  LD_LIBRARY_PATH=$t/same expect_rc 0 $mode "$t/family" "$t/copy/libcudnn.so.9" cudnnCreate
  has "loaded $t/same/libcudnn_heuristic.so.9"
  lacks "cudnn-compat:"
done

# What the loader finds is another release's: refused, one line, no 9.0.0 file in the process.
for mode in audit preload; do
  LD_LIBRARY_PATH=$t/other expect_rc 3 $mode "$t/family" "$t/copy/libcudnn.so.9" cudnnCreate
  has "cudnnCreate = 1008"
  lacks "loaded $t/other"
  count "cudnn-compat:" 1
  has "libcudnn_heuristic.so.9 is not in $t/copy, where this process's cuDNN 9.1.0 comes from"
done

# The loader's first file for the shorter name is another release's, its search finds the exact
# name of the family's release further on (an outside tester's finding: refused, cudnnCreate 1008).
mkdir -p "$t/later"
cp -a "$FAKES/9.1.0/lib64/"libcudnn_heuristic.so.9.1.0 "$t/later/"
for mode in audit preload; do
  LD_LIBRARY_PATH=$t/other:$t/later expect_rc 0 $mode "$t/family" "$t/copy/libcudnn.so.9" cudnnCreate
  has "cudnnCreate = 0"
  has "loaded $t/later/libcudnn_heuristic.so.9.1.0"
  lacks "loaded $t/other"
done

# Under CUDNN_COMPAT_DEBUG the refusal is said too (it was hidden by the debug lines before it).
LD_LIBRARY_PATH=$t/other CUDNN_COMPAT_DEBUG=1 expect_rc 3 audit "$t/family" "$t/copy/libcudnn.so.9" cudnnCreate
has "libcudnn_heuristic.so.9 is not in $t/copy, where this process's cuDNN 9.1.0 comes from"

# Only a file named as NVIDIA names that sub-library's file of the release is taken for it: not
# one whose stem differs or whose version runs on (an outside tester's finding: both were taken,
# and here they hold 9.0.0's bytes).
for odd in libcudnn_heuristic_old.so.9.1.0 libcudnn_heuristic.so.9.1.0.0; do
  rm -rf "$t/odd" && mkdir "$t/odd"
  cp "$FAKES/9.0.0/lib64/libcudnn_heuristic.so.9.0.0" "$t/odd/$odd"
  ln -s "$odd" "$t/odd/libcudnn_heuristic.so.9"
  for mode in audit preload; do
    LD_LIBRARY_PATH=$t/odd expect_rc 3 $mode "$t/family" "$t/copy/libcudnn.so.9" cudnnCreate
    lacks "loaded $t/odd"
    count "cudnn-compat:" 1
    has "libcudnn_heuristic.so.9 is not in $t/copy, where this process's cuDNN 9.1.0 comes from"
  done
done
