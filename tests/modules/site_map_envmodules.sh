# The site's CUDNN_COMPAT_MAP survives unload and purge of cudnn-compat on the real Environment
# Modules (see check_site_map_kept in common.sh).
source "$(dirname "$0")/common.sh"
[[ -f $modulecmd ]] || skip "no Environment Modules at $modulecmd (scripts/deps.sh unpacks it)"
command -v tclsh8.6 >/dev/null || skip "no tclsh8.6"
tcl_tree
module() { tcl_module "$@"; }
check_site_map_kept
