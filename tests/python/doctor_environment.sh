# doctor inside a virtualenv says which copy each framework will load and why - its RUNPATH to
# the wheel, against LD_LIBRARY_PATH, against the system - whether that fits the framework's pin,
# and a family that will mix, before it happens.
source "$(dirname "$0")/common.sh"
make_venv "$t/venv"
wheel_cudnn "$site" 9.20.0
framework "$site" torch 2.6.0 "nvidia-cudnn-cu12==9.20.0.48"
lib=$site/torch/lib/libtorch_cuda.so wheel=$site/nvidia/cudnn/lib
export VIRTUAL_ENV=$t/venv
torch="torch 2.6.0 (nvidia-cudnn-cu12==9.20.0.48; platform_system == \"Linux\" and platform_machine == \"x86_64\")"

expect_rc 0 cc doctor
has "ok: $torch: $lib loads libcudnn.so.9 from $wheel (wheel, through its RUNPATH): cuDNN 9.20.0, which fits its pin"

# A module's 9.0.0 on LD_LIBRARY_PATH wins over the RUNPATH, and does not fit the pin.
LD_LIBRARY_PATH=$FAKES/9.0.0/lib64 expect_rc 1 cc doctor
has "problem: $torch: $lib loads libcudnn.so.9 from $FAKES/9.0.0/lib64 (user, through LD_LIBRARY_PATH, which the loader searches before its RUNPATH): cuDNN 9.0.0, which does not fit its pin"
has "fix: remove $FAKES/9.0.0/lib64 from LD_LIBRARY_PATH"
has "fix: export LD_AUDIT=\$(cudnn-compat shim-path)   # picks a release that fits the pin"

# A pin no installed release meets: the shim would change nothing, so doctor does not offer it.
sed -i 's/==9.20.0.48/==9.24.0.10/' "$site"/torch-2.6.0.dist-info/METADATA
expect_rc 1 cc doctor
has "cuDNN 9.20.0, which does not fit its pin"
has "fix: ask the admins for cuDNN 9.24"
lacks "LD_AUDIT"
sed -i 's/==9.24.0.10/==9.20.0.48/' "$site"/torch-2.6.0.dist-info/METADATA

# The wheel lacks a sub-library that the system's directory has, of another release: the family
# would mix, and doctor says so before anything is loaded.
wheel_cudnn "$site" 9.20.0 engines_tensor_ir
rm "$wheel/libcudnn_engines_tensor_ir.so.9"
mkdir "$t/system"
cp -P "$FAKES/9.23.0/lib64/"libcudnn_engines_tensor_ir* "$t/system/"
expect_rc 1 in_system_dir "$t/system" "$CUDNN_COMPAT" doctor
has "problem: mixed family for torch 2.6.0: the cuDNN 9.20.0 dispatcher in $wheel would load libcudnn_engines_tensor_ir.so.9 from /"
has "/x86_64-linux-gnu/libcudnn_engines_tensor_ir.so.9 (the default directories), another release's"
