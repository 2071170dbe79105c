# A major alone is a need (issue 25 item 7; see check_major_need in common.sh).
source "$(dirname "$0")/common.sh"
[[ -f $modulecmd ]] || skip "no Environment Modules at $modulecmd (scripts/deps.sh unpacks it)"
format=tcl swap=switch
tcl_tree
major_apps
module() { tcl_module "$@"; }
check_major_need
