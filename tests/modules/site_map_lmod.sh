# The site's CUDNN_COMPAT_MAP survives unload and purge of cudnn-compat on the real Lmod (see
# check_site_map_kept in common.sh).
source "$(dirname "$0")/common.sh"
[[ -x $lmod_cmd ]] || skip "no Lmod at $lmod_cmd (scripts/deps.sh installs it)"
lmod_tree
module() { lmod_module "$@"; }
check_site_map_kept
