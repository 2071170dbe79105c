# The application's need in a form that loads without the site package, a warning that leaves the
# exit status 0 and its command on one line, hints in the author's language (issue 25 items 9 and
# 10; see check_portable_need in common.sh).
source "$(dirname "$0")/common.sh"
[[ -f $modulecmd ]] || skip "no Environment Modules at $modulecmd (scripts/deps.sh unpacks it)"
format=tcl swap=switch site=MODULES_SITECONFIG
tcl_tree
module() { tcl_module "$@"; }
check_portable_need
