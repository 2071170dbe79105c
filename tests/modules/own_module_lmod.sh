# A user's own cuDNN module, missing from the map, is checked on the real Lmod (see
# check_own_module in common.sh).
source "$(dirname "$0")/common.sh"
[[ -x $lmod_cmd ]] || skip "no Lmod at $lmod_cmd (scripts/deps.sh installs it)"
format=lua
lmod_tree
module() { lmod_module "$@"; }
swap=swap
check_own_module
