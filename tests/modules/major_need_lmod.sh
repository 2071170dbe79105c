# A major alone is a need (issue 25 item 7; see check_major_need in common.sh).
source "$(dirname "$0")/common.sh"
[[ -x $lmod_cmd ]] || skip "no Lmod at $lmod_cmd (scripts/deps.sh installs it)"
format=lua swap=swap
lmod_tree
major_apps
module() { lmod_module "$@"; }
check_major_need
