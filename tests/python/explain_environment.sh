# explain weighs the active Python environment's releases, as doctor and the shim do: inside a
# virtualenv whose whole wheel (FAKE 9.20.0) fits PyTorch's message, with no map, it advised
# "ask the admins for cuDNN 9.20" (helper 111). It now names the wheel's place.
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
