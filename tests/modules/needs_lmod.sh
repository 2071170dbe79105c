# The need as module state on the real Lmod (see check_needs in common.sh).
source "$(dirname "$0")/common.sh"
[[ -x $lmod_cmd ]] || skip "no Lmod at $lmod_cmd (scripts/deps.sh installs it)"
lmod_tree
need_lua_apps
module() { lmod_module "$@"; }
swap=swap
check_needs
