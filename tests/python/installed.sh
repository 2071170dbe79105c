# As deployed: installed to a prefix, moved, and run with no CUDNN_COMPAT_* variable at all. In a
# virtualenv, the framework's pin picks its wheel over a module's misfit on LD_LIBRARY_PATH, and
# a wheel family that lacks a sub-library is never completed from another release; under both
# front ends, from C and from ctypes.
source "$(dirname "$0")/common.sh"
: "${BUILD_DIR:?}"
for v in "${!CUDNN_COMPAT_@}"; do unset "$v"; done
cmake --install "$BUILD_DIR" --prefix "$t/first" >/dev/null
mv "$t/first" "$t/moved"
shim=$t/moved/lib/cudnn-compat/libcudnn-compat.so
[[ $("$t/moved/bin/cudnn-compat" shim-path) == "$shim" ]] || fail "shim-path is not the moved one"
make_venv "$t/venv"
python=$t/venv/bin/python
wheel_cudnn "$site" 9.20.0
framework "$site" torch 2.6.0 "nvidia-cudnn-cu12==9.20.0.48"
lib=$site/torch/lib/libtorch_cuda.so wheel=$site/nvidia/cudnn/lib

SHIM=$shim  # audit and preload run the moved one
export LD_LIBRARY_PATH=$FAKES/9.0.0/lib64
redirected "$lib" 90000 92000 "$wheel" 9

wheel_cudnn "$site" 9.20.0 engines_tensor_ir
rm "$wheel/libcudnn_engines_tensor_ir.so.9"
export LD_LIBRARY_PATH=$FAKES/9.23.0/lib64
for mode in audit preload; do
  expect_rc 3 $mode c_client "$lib" "$wheel/libcudnn.so.9"
  has "cudnn-compat: libcudnn_engines_tensor_ir.so.9 is not in $wheel"
  lacks "loaded $FAKES/9.23.0"
done
