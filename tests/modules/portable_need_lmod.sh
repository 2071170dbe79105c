# The application's need in a form that loads without the site package, a warning that leaves the
# exit status 0 and its command on one line, hints in the author's language (issue 25 items 9 and
# 10; see check_portable_need in common.sh).
source "$(dirname "$0")/common.sh"
[[ -x $lmod_cmd ]] || skip "no Lmod at $lmod_cmd (scripts/deps.sh installs it)"
format=lua swap=swap site=LMOD_PACKAGE_PATH
lmod_tree
module() { lmod_module "$@"; }
check_portable_need
