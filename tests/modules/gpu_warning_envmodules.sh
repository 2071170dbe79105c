# Issue 22 item 4: the Environment Modules siteconfig.tcl warns at `module load` when the loaded
# cuDNN cannot run on this node's GPUs or driver, from the engine's verdicts in the map's decision
# table and the node's facts (overrides or node file), and names the module that would run there.
source "$(dirname "$0")/gpu_common.bash"
[[ -f $modulecmd ]] || skip "no Environment Modules at $modulecmd (scripts/deps.sh unpacks it)"
tcl_tree
module() { tcl_module "$@"; }
swap=switch
check_gpu_warning
