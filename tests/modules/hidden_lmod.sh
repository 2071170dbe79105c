# Hidden modules are withdrawn builds: not handed out, by any front end (issue 25 item 2; see
# check_hidden in common.sh), on the real Lmod.
source "$(dirname "$0")/common.sh"
[[ -x $lmod_cmd ]] || skip "no Lmod at $lmod_cmd (scripts/deps.sh installs it)"
format=lua system=lmod swap=swap
lmod_tree
hidden_site
module() { lmod_module "$@"; }
check_hidden
