# A lone sub-library on LD_LIBRARY_PATH whose file names no release (a copy of FAKE 9.23.0's
# libcudnn_engines_tensor_ir.so.9 in a directory of its own), behind a misfitting FAKE 9.1.0, in
# a virtualenv whose torch pins the wheel's FAKE 9.20.0, which lacks that file. doctor named only
# the misfit, and each of its fixes (take 9.1.0 off the path, put the wheel first, turn the shim
# on) led to a process that loads the wheel's family with the stray file in it:
# CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH (helper 110). It now names the stray, and removing
# it is among its fixes.
source "$(dirname "$0")/common.sh"
make_venv "$t/venv"
wheel_cudnn "$site" 9.20.0 engines_tensor_ir
framework "$site" torch 2.6.0 "nvidia-cudnn-cu12==9.20.0.48"
lib=$site/torch/lib/libtorch_cuda.so wheel=$site/nvidia/cudnn/lib
mkdir -p "$t/stray"
cp -L "$FAKES/9.23.0/lib64/libcudnn_engines_tensor_ir.so.9" "$t/stray/"
export VIRTUAL_ENV=$t/venv

stray="$t/stray/libcudnn_engines_tensor_ir.so.9 is alone on LD_LIBRARY_PATH"
LD_LIBRARY_PATH=$t/stray:$FAKES/9.1.0/lib64 expect_rc 1 cc doctor
has "problem: torch 2.6.0"
has "problem: $stray"
has "the cuDNN 9.20.0.48 in $wheel (wheel), which lacks libcudnn_engines_tensor_ir"
has "fix: remove $t/stray from LD_LIBRARY_PATH"
# No map here: the shim's pick is the environment's wheel (helper 111: "from the map").
has "# the shim picks it from the active environment"
# What the finding foretells: with 9.1.0 off the path (doctor's first fix), the wheel's family
# takes the stray file and mixes.
LD_LIBRARY_PATH=$t/stray expect_rc 3 c_client "$lib" ""
has "status 1002"  # CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH
has "loaded $t/stray/libcudnn_engines_tensor_ir.so.9"
# Where the wheel's family is the loader's own, the mixed family is said once, by the family's
# own finding.
LD_LIBRARY_PATH=$t/stray expect_rc 1 cc doctor
count "$t/stray/libcudnn_engines_tensor_ir.so.9" 1
lacks "$stray"
