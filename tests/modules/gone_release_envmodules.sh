# A release whose files the site removed is never advised, on the real Environment Modules (see
# check_gone_release in common.sh).
source "$(dirname "$0")/common.sh"
[[ -f $modulecmd ]] || skip "no Environment Modules at $modulecmd (scripts/deps.sh unpacks it)"
command -v tclsh8.6 >/dev/null || skip "no tclsh8.6"
format=tcl
tcl_tree
module() { tcl_module "$@"; }
swap=switch
check_gone_release
