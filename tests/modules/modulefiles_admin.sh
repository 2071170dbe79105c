# Generated cuDNN modules carry what an admin's (EasyBuild's) carry: the CUDA they were built for
# as a dependency, loaded with them where the tree has it and no CUDA is loaded (a tree without it
# still loads), CMAKE_PREFIX_PATH, CPATH, help and whatis with a description; on the real Lmod and
# the real Environment Modules (issue 12, low).
source "$(dirname "$0")/common.sh"
[[ -x $lmod_cmd && -f $modulecmd ]] || skip "needs Lmod and Environment Modules (scripts/deps.sh)"
command -v tclsh8.6 >/dev/null || skip "no tclsh8.6"
lmod_tree
tcl_tree
for system in lmod tcl; do
  if [[ $system == lmod ]]; then
    module() { lmod_module "$@"; }; tree=$t/lua; ext=.lua
    cuda_text='setenv("CUDA_HOME", "/opt/cuda/8.0")'
  else
    module() { tcl_module "$@"; }; tree=$t/tcl; ext=
    cuda_text=$'#%Module\nsetenv CUDA_HOME /opt/cuda/8.0'
  fi
  export MODULEPATH=$tree
  # No CUDA module in the tree: cudnn/5.1 still loads, with its build variables.
  module load cudnn/5.1; msg
  [[ -z ${CUDA_HOME:-} && :$LOADEDMODULES: == *:cudnn/5.1:* ]] || fail "$system: $LOADEDMODULES"
  [[ :${CMAKE_PREFIX_PATH:-}: == *":$FAKES/5.1.10:"* && :${CPATH:-}: == *":$FAKES/5.1.10/include:"* ]] ||
    fail "$system: CMAKE_PREFIX_PATH=${CMAKE_PREFIX_PATH:-} CPATH=${CPATH:-}"
  module purge
  # With cuda/8.0 in the tree, loading cudnn/5.1 loads the CUDA it was built for.
  mkdir -p "$tree/cuda" && printf '%s\n' "$cuda_text" >"$tree/cuda/8.0$ext"
  module load cudnn/5.1; msg
  [[ ${CUDA_HOME:-} == /opt/cuda/8.0 && :$LOADEDMODULES: == *:cuda/8.0:* ]] ||
    fail "$system: cudnn/5.1 did not bring cuda/8.0: $LOADEDMODULES ${CUDA_HOME:-}"
  module purge
  if [[ $system == lmod ]]; then
    expect_rc 0 "$lmod_cmd" bash whatis cudnn/5.1
  else
    expect_rc 0 tclsh8.6 "$modulecmd" bash whatis cudnn/5.1
  fi
  has "Description: The NVIDIA CUDA Deep Neural Network library"
  rm -r "$tree/cuda"
done
