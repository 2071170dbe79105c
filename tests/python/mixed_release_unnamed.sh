# pytorch#188892 where the other copies' names say no release, as wheels and NVIDIA's tarballs
# name them (libcudnn_*.so.9 alone): the wheel family of FAKE 9.20.0 lacks
# libcudnn_engines_tensor_ir.so.9, and a directory on LD_LIBRARY_PATH holds a whole family
# named so. Its own dispatcher says its release (helper 111: the shim let 9.23.0's file in, two
# releases mapped). Of another release it is refused with one line, from C and from ctypes,
# under both front ends, also where that directory holds only part of its family; of 9.20.0
# itself it lends the file, with no line; a lone file with no dispatcher beside it cannot be told
# and loads with its one line, as before.
source "$(dirname "$0")/common.sh"
make_venv "$t/venv"
wheel_cudnn "$site" 9.20.0 engines_tensor_ir
framework "$site" torch 2.6.0 "nvidia-cudnn-cu12==9.20.0.48"
lib=$site/torch/lib/libtorch_cuda.so wheel=$site/nvidia/cudnn/lib
unnamed_family() {  # DIR RELEASE [SUB]: the release's .so.9 files (or one sub-library) in DIR
  mkdir -p "$1"
  local f
  for f in "$FAKES/$2/lib64/"libcudnn${3:+_$3}*.so.9; do cp -L "$f" "$1/"; done
}
unnamed_family "$t/other" 9.23.0
export LD_LIBRARY_PATH=$t/other

two_releases_without_shim c_client "$lib" "$wheel/libcudnn.so.9"
refused_missing "cudnn-compat: libcudnn_engines_tensor_ir.so.9 is not in $wheel, where this process's cuDNN 9.20.0 comes from, and no other place of that release has it" \
  "$lib" "$wheel/libcudnn.so.9"
lacks "loaded $t/other"

# Another release's dispatcher beside only part of its family: its probe's version checks fail,
# and it still says its release (helper 117: let through, two releases mapped).
rm -rf "$t/other"
unnamed_family "$t/other" 9.23.0 engines_tensor_ir
cp -L "$FAKES/9.23.0/lib64/libcudnn.so.9" "$t/other/"
refused_missing "cudnn-compat: libcudnn_engines_tensor_ir.so.9 is not in $wheel, where this process's cuDNN 9.20.0 comes from, and no other place of that release has it" \
  "$lib" "$wheel/libcudnn.so.9"

# The same release, named alike: the missing file comes from there, and nothing is said.
rm -rf "$t/other"
unnamed_family "$t/other" 9.20.0
for mode in audit preload; do
  expect_rc 0 $mode py_client "$lib" "$wheel/libcudnn.so.9"
  has "status 0"
  has "loaded $t/other/libcudnn_engines_tensor_ir.so.9"
  lacks "cudnn-compat:"
  # The report says so, not "MIXED ... an unknown release" (helper 117, r02).
  CUDNN_COMPAT_REPORT=1 expect_rc 0 $mode py_client "$lib" "$wheel/libcudnn.so.9"
  has "report: $t/other/libcudnn_engines_tensor_ir.so.9: cuDNN 9.20.0 (as its directory's family), user, chosen by the shim (another place of the family's release)"
  lacks "MIXED"
done

# A lone file, no dispatcher beside it: its release cannot be told without loading it.
rm -rf "$t/other"
unnamed_family "$t/other" 9.23.0 engines_tensor_ir
for mode in audit preload; do
  expect_rc 3 $mode py_client "$lib" "$wheel/libcudnn.so.9"
  count "cudnn-compat:" 1
  has "whose file names no release"
done
