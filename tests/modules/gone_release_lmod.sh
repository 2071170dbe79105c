# A release whose files the site removed is never advised, on the real Lmod (see
# check_gone_release in common.sh).
source "$(dirname "$0")/common.sh"
[[ -x $lmod_cmd ]] || skip "no Lmod at $lmod_cmd (scripts/deps.sh installs it)"
format=lua
lmod_tree
module() { lmod_module "$@"; }
swap=swap
check_gone_release
