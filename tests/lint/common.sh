# Sourced by every tests/lint/*.sh scenario. CTest passes:
#   SOURCE_DIR  the checkout whose sources are judged
source "$(dirname "${BASH_SOURCE[0]}")/../scenario.sh"
: "${SOURCE_DIR:?}"
