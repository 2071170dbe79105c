# A wheel whose family lacks a sub-library its own dispatcher names (FAKE 9.20.0 without
# libcudnn_engines_tensor_ir.so.9) and no place that has one: the dispatcher loads, so the probe
# passes, and cuDNN fails at the first handle with CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED. doctor
# said ok, and the shim's own line sent the user to it (helpers 110, 111). It now names the file
# and the reinstall that mends the wheel.
source "$(dirname "$0")/common.sh"
make_venv "$t/venv"
wheel_cudnn "$site" 9.20.0 engines_tensor_ir
framework "$site" torch 2.6.0 "nvidia-cudnn-cu12==9.20.0.48"
lib=$site/torch/lib/libtorch_cuda.so wheel=$site/nvidia/cudnn/lib
export VIRTUAL_ENV=$t/venv
unset LD_LIBRARY_PATH

expect_rc 3 c_client "$lib" ""
has "status 1008"  # CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED
expect_rc 1 cc doctor
has "problem: incomplete family for torch 2.6.0: the cuDNN 9.20.0 in $wheel lacks libcudnn_engines_tensor_ir.so.9"
has "fix: pip install --force-reinstall 'nvidia-cudnn-cu12==9.20.0.48'"
# The whole wheel: no such line.
cp -L "$FAKES/9.20.0/lib64/libcudnn_engines_tensor_ir.so.9" "$wheel/"
expect_rc 0 c_client "$lib" ""
has "status 0"
expect_rc 0 cc doctor
lacks "incomplete family"
