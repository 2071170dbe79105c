# explain weighs the active Python environment's releases, as doctor and the shim do: inside a
# virtualenv whose whole wheel (FAKE 9.20.0) fits PyTorch's message, with no map, it advised
# "ask the admins for cuDNN 9.20" (helper 111). It now names the wheel's place - unless the wheel
# lacks a sub-library its own libraries name, which fails at the first handle (helper 113).
source "$(dirname "$0")/common.sh"
make_venv "$t/venv"
wheel_cudnn "$site" 9.20.0
message="RuntimeError: cuDNN version incompatibility: PyTorch was compiled  against (9, 20, 0) but found runtime version (9, 1, 0). PyTorch already comes bundled with cuDNN."
VIRTUAL_ENV=$t/venv expect_rc 0 cc explain "$message"
has "fix: or: export LD_LIBRARY_PATH=$site/nvidia/cudnn/lib:\$LD_LIBRARY_PATH   # cuDNN 9.20.0.48"
has "# the shim picks it from the active environment"
lacks "ask the admins"
# Outside it, nothing installed fits: the admins are asked.
expect_rc 0 cc explain "$message"
has "ask the admins for cuDNN 9.20"
# A wheel without libcudnn_engines_tensor_ir.so.9 is no place to send anyone.
rm "$site/nvidia/cudnn/lib/libcudnn_engines_tensor_ir.so.9"
VIRTUAL_ENV=$t/venv expect_rc 0 cc explain "$message"
lacks "$site/nvidia/cudnn/lib"
has "ask the admins for cuDNN 9.20"
