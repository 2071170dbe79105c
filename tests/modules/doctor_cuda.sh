# doctor knows the loaded CUDA from Spack's cuda/<version>-<hash> modules and from CUDA_HOME, and
# does not call the shim's choice ok when it is built for another CUDA than the loaded one; on the
# real Lmod and the real Environment Modules (issue 12, low).
source "$(dirname "$0")/common.sh"
[[ -x $lmod_cmd && -f $modulecmd ]] || skip "needs Lmod and Environment Modules (scripts/deps.sh)"
command -v tclsh8.6 >/dev/null || skip "no tclsh8.6"
lmod_tree
tcl_tree
mkdir -p "$t/lua/cuda" "$t/tcl/cuda"
echo 'setenv("CUDA_ROOT", "/opt/spack/cuda-11.8.0")' >"$t/lua/cuda/11.8.0-abcdefg.lua"
printf '#%%Module\nsetenv CUDA_ROOT /opt/spack/cuda-11.8.0\n' >"$t/tcl/cuda/11.8.0-abcdefg"
for system in lmod tcl; do
  if [[ $system == lmod ]]; then
    module() { lmod_module "$@"; }; export MODULEPATH=$t/lua
  else
    module() { tcl_module "$@"; }; export MODULEPATH=$t/tcl
  fi
  module load cuda/11.8.0-abcdefg cudnn/9.1
  expect_rc 1 cc doctor --require 9.1
  has "problem: cuDNN 9.1.0 is built for CUDA 12.4 but CUDA 11 is loaded (module cuda/11.8.0-abcdefg)"
  # The shim, switched on, would take a cuDNN of another CUDA: not ok.
  expect_rc 1 env LD_AUDIT="$(cc shim-path)" "$CUDNN_COMPAT" doctor --require 9.1
  has "problem: the shim is on (LD_AUDIT); it would load"
  has "but CUDA 11 is loaded (module cuda/11.8.0-abcdefg)"
  # No installed cuDNN 9 is built for CUDA 11: CUDNN_COMPAT_CUDA=11 would have the shim hand
  # nothing over, so doctor does not offer it (outside test 1203d, D1).
  has "fix: ask the admins for a cuDNN built for CUDA 11"
  lacks "export CUDNN_COMPAT_CUDA=11"
  module purge
done
# Where a release built for the loaded CUDA is installed (the real cuDNN 9, for CUDA 13), the
# variable is the fix.
if [[ -e /usr/local/cuda/lib64/libcudnn.so.9 ]]; then
  mkdir -p "$t/cuda13"
  echo '{"cuda": {"version": "13.0.48"}}' >"$t/cuda13/version.json"
  expect_rc 1 env CUDA_HOME="$t/cuda13" LD_LIBRARY_PATH="$FAKES/9.1.0/lib64" LD_AUDIT="$(cc shim-path)" \
    "$CUDNN_COMPAT" doctor --require 9.1
  has "but CUDA 13 is loaded"
  has "fix: export CUDNN_COMPAT_CUDA=13"
fi
# No CUDA module: CUDA_HOME's version.json says which.
mkdir -p "$t/cuda-home"
echo '{"cuda": {"name": "CUDA SDK", "version": "11.8.20220929"}}' >"$t/cuda-home/version.json"
expect_rc 1 env CUDA_HOME="$t/cuda-home" LD_LIBRARY_PATH="$FAKES/9.1.0/lib64" "$CUDNN_COMPAT" doctor --require 9.1
has "problem: cuDNN 9.1.0 is built for CUDA 12.4 but CUDA 11 is loaded (CUDA_HOME=$t/cuda-home)"
