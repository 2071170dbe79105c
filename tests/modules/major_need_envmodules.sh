# A major alone is a need, on the real Environment Modules (issue 25 item 7; see check_major_need in
# common.sh).
source "$(dirname "$0")/common.sh"
use_system envmodules
major_apps
check_major_need
