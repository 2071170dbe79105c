# Issue 22 item 4: the Lmod hook warns at `module load` when the loaded cuDNN cannot run on this
# node's GPUs or driver, from the engine's verdicts in the map's decision table and the node's
# facts (overrides or node file), and names the module that would run there.
source "$(dirname "$0")/gpu_common.bash"
[[ -x $lmod_cmd ]] || skip "no Lmod at $lmod_cmd (scripts/deps.sh installs it)"
lmod_tree
module() { lmod_module "$@"; }
swap=swap
check_gpu_warning
