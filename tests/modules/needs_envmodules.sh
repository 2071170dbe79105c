# The need as module state on the real Environment Modules (see check_needs in common.sh).
source "$(dirname "$0")/common.sh"
[[ -f $modulecmd ]] || skip "no Environment Modules at $modulecmd (scripts/deps.sh unpacks it)"
command -v tclsh8.6 >/dev/null || skip "no tclsh8.6"
tcl_tree
need_tcl_apps
module() { tcl_module "$@"; }
swap=switch
check_needs
