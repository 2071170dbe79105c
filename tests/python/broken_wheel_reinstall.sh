# A wheel of the pinned release whose dispatcher does not load (a sub-library it links is gone):
# the advice is to reinstall it, since pip answers "Requirement already satisfied" to
# `pip install 'nvidia-cudnn-cu12==9.20.0.48'` where that version is installed (helper 109: the
# shim advised that, and doctor gave no fix at all).
source "$(dirname "$0")/common.sh"
make_venv "$t/venv"
wheel_cudnn "$site" 9.20.0 ops
framework "$site" torch 2.6.0 "nvidia-cudnn-cu12==9.20.0.48"
lib=$site/torch/lib/libtorch_cuda.so
export VIRTUAL_ENV=$t/venv
expect_rc 3 audit c_client "$lib"
has "In its environment: pip install --force-reinstall 'nvidia-cudnn-cu12==9.20.0.48'"
expect_rc 1 cc doctor
has "which does not load"
has "fix: pip install --force-reinstall 'nvidia-cudnn-cu12==9.20.0.48'   # in its environment"
# Another release installed: pip replaces it without being told to.
rm -r "$site"/nvidia "$site"/nvidia_cudnn_cu12-*
wheel_cudnn "$site" 9.1.0
expect_rc 0 audit c_client "$lib"
has "In its environment: pip install 'nvidia-cudnn-cu12==9.20.0.48'"
