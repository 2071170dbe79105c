# Hidden modules are withdrawn builds: not handed out, by any front end (issue 25 item 2; see
# check_hidden in common.sh), on the real Environment Modules.
source "$(dirname "$0")/common.sh"
[[ -f $modulecmd ]] || skip "no Environment Modules at $modulecmd (scripts/deps.sh unpacks it)"
format=tcl system=envmodules swap=switch
tcl_tree
hidden_site
module() { tcl_module "$@"; }
check_hidden
