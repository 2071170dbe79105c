# pytorch#188892 with FAKE releases: a wheel family of cuDNN 9.20.0 that lacks one engine
# sub-library (libcudnn_engines_tensor_ir.so.9), and a whole 9.23.0 family on LD_LIBRARY_PATH.
# The framework loads the wheel's dispatcher by path, as torch's preload does. Without the shim
# its sub-libraries come from 9.23.0 (LD_LIBRARY_PATH is searched before the dispatcher's
# RUNPATH, and the wheel lacks one anyway): two releases in one process and
# CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH. With the shim, from C and from ctypes, under both
# front ends: one release; the missing file is not loaded from another release, and one line
# names it and the directory. With a whole 9.20.0 elsewhere in the map, the missing one comes
# from there: still one release.
source "$(dirname "$0")/common.sh"
make_venv "$t/venv"
wheel_cudnn "$site" 9.20.0 engines_tensor_ir
framework "$site" torch 2.6.0 "nvidia-cudnn-cu12==9.20.0.48"
lib=$site/torch/lib/libtorch_cuda.so wheel=$site/nvidia/cudnn/lib
export LD_LIBRARY_PATH=$FAKES/9.23.0/lib64

two_releases_without_shim c_client "$lib" "$wheel/libcudnn.so.9"
has "loaded $FAKES/9.23.0/lib64/"
refused_missing "cudnn-compat: libcudnn_engines_tensor_ir.so.9 is not in $wheel, where this process's cuDNN 9.20.0 comes from, and no other place of that release has it" \
  "$lib" "$wheel/libcudnn.so.9"
lacks "loaded $FAKES/9.23.0"

# Another place of exactly 9.20.0 (a module's whole family, in the map) lends the missing file.
printf 'schema = 1\n[[cudnn]]\nversion = "9.20.0"\nlib = "%s"\nmodule = "cudnn/9.20"\n' \
  "$FAKES/9.20.0/lib64" >"$t/map.toml"
expect_rc 0 cc map validate
for mode in audit preload; do
  expect_rc 0 $mode py_client "$lib" "$wheel/libcudnn.so.9"
  has "status 0"
  has "loaded $FAKES/9.20.0/lib64/libcudnn_engines_tensor_ir.so.9"
  lacks "loaded $FAKES/9.23.0"
  lacks "cudnn-compat:"
done
