# Two applications, the first loaded unloaded first: the shim holds the job to the need of the one
# still loaded, not to the value Lmod's pushenv restores (see check_unload_order in common.sh).
source "$(dirname "$0")/common.sh"
[[ -x $lmod_cmd ]] || skip "no Lmod at $lmod_cmd (scripts/deps.sh installs it)"
lmod_tree
mkdir -p "$t/lua/old"
echo 'cudnn_requires("5.0")' >"$t/lua/old/1.0.lua"
module() { lmod_module "$@"; }
check_unload_order
