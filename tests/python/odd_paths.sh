# A virtualenv whose path holds line breaks around answer-like text. The engine answers the shim
# in lines, and such a name must not split one line into two: "use <another cuDNN>" would be
# loaded. The wheel there cannot be named in the answer, so the process gets its ordinary load
# and one line says why.
source "$(dirname "$0")/common.sh"
venv=$t/ve$'\n'"use $FAKES/9.1.0/lib64/libcudnn.so.9"$'\n'"x"
make_venv "$venv"
wheel_cudnn "$site" 9.20.0
framework "$site" torch 2.6.0 "nvidia-cudnn-cu12==9.20.0.48"
export LD_LIBRARY_PATH=$FAKES/9.0.0/lib64
for mode in audit preload; do
  expect_rc 0 $mode c_client "$site/torch/lib/libtorch_cuda.so"
  has "version 90000"
  lacks "$FAKES/9.1.0"
  has "cudnn-compat: the cuDNN to hand over is at a path with a line break"
done
