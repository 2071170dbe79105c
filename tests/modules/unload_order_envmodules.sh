# Two applications, the first loaded unloaded first: the shim holds the job to the need of the one
# still loaded, and a CUDA need pushed by another application is no need of it (see
# check_unload_order in common.sh).
source "$(dirname "$0")/common.sh"
[[ -f $modulecmd ]] || skip "no Environment Modules at $modulecmd (scripts/deps.sh unpacks it)"
command -v tclsh8.6 >/dev/null || skip "no tclsh8.6"
tcl_tree
mkdir -p "$t/tcl/old"
printf '#%%Module1.0\ncudnn-requires 5.0\n' >"$t/tcl/old/1.0"
module() { tcl_module "$@"; }
check_unload_order
