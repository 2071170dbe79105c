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
# Behind a misfitting FAKE 9.1.0 on LD_LIBRARY_PATH the loader takes that, and each of doctor's
# fixes (take it off the path, put the wheel first, turn the shim on) leads to the wheel: it is
# named there too, and with the shim on, which hands the wheel over (helper 113: ok, rc 0).
for shim in "" "$SHIM"; do
  LD_AUDIT=$shim LD_LIBRARY_PATH=$FAKES/9.1.0/lib64 expect_rc 1 cc doctor
  has "problem: incomplete family where the fixes lead (wheel): the cuDNN 9.20.0.48 in $wheel lacks libcudnn_engines_tensor_ir.so.9"
  has "fix: pip install --force-reinstall 'nvidia-cudnn-cu12==9.20.0.48'"
done
# The whole wheel: no such line.
cp -L "$FAKES/9.20.0/lib64/libcudnn_engines_tensor_ir.so.9" "$wheel/"
expect_rc 0 c_client "$lib" ""
has "status 0"
expect_rc 0 cc doctor
lacks "incomplete family"
