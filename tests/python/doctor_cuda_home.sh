# CUDA_HOME naming a CUDA 13 beside frameworks whose wheels bring CUDA 12 (nvidia-cudnn-cu12): the
# frameworks run the CUDA they bring, and their lines judge it; doctor's advice, followed, ends in
# ok. The doctor of d193e47 said "problem: cuDNN 9.23.0 is built for CUDA 12.9 but CUDA 13 is
# loaded" after its own advice, with no fix (helper 105 r03). Without such frameworks the problem
# is still said, now with what to do.
source "$(dirname "$0")/common.sh"
torch_above_its_wheel
mkdir -p "$t/cuda13"
printf '{"cuda": {"name": "CUDA SDK", "version": "13.0.2"}}\n' >"$t/cuda13/version.json"
export CUDA_HOME=$t/cuda13
export LD_LIBRARY_PATH=$FAKES/9.23.0/lib64  # the advice followed: the module of 9.23
expect_rc 0 cc doctor
has "ok: torch"
lacks "is loaded (CUDA_HOME="
unset VIRTUAL_ENV
expect_rc 1 cc doctor
has "problem: cuDNN 9.23.0 is built for CUDA 12.9 but CUDA 13 is loaded (CUDA_HOME=$t/cuda13)"
has "fix: ask the admins for a cuDNN 9 built for CUDA 13, or load the CUDA 12 it is built for"
