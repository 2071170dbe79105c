# Environment Modules scan reads Spack's Tcl modules (`prepend-path --delim ":"`, `-d ":"`,
# `--duplicates`), and a CUDA module that carries cuDNN in its own lib64 is a place of that
# release, on both systems (issue 12 item 4).
source "$(dirname "$0")/common.sh"
[[ -x $lmod_cmd && -f $modulecmd ]] || skip "needs Lmod and Environment Modules (scripts/deps.sh)"
site_tree
for system in envmodules lmod; do
  if [[ $system == lmod ]]; then site_lmod; else site_tcl; fi
  expect_rc 0 env MODULES_CMD="$modulecmd" "$CUDNN_COMPAT" scan --modules $system
  has 'module = "cudnn/9.1.0-12-fedcba"'
  has 'module = ["cuDNN/8.9.7.29-CUDA-12.2.0", "cudnn/8.9.7.29-12-abcdef"]'
  has 'module = "cuda/10.2"'
  has 'version = "7.6.5"'
  lacks "module cuda/"  # a CUDA module without cuDNN is no problem to report
done
