# The need in the form that loads without the site package, a warning that leaves the exit status
# 0 with its command on one line, hints in the author's language, on the real Environment Modules (issue 25
# items 9 and 10; see check_portable_need in common.sh).
source "$(dirname "$0")/common.sh"
use_system envmodules
check_portable_need
