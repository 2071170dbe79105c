# Hidden modules are withdrawn builds, handed out by no front end, on the real Lmod (issue 25
# item 2; see check_hidden in common.sh).
source "$(dirname "$0")/common.sh"
use_system lmod
hidden_site
check_hidden
