# The advice of the Lmod hook works when followed: swap, not a hidden module, the application's
# toolchain first (issue 12 item 5; see check_advice in common.sh).
source "$(dirname "$0")/common.sh"
[[ -x $lmod_cmd ]] || skip "no Lmod at $lmod_cmd (scripts/deps.sh installs it)"
format=lua
advice_site
export LMOD_PACKAGE_PATH=$SHARE/lmod
module() { lmod_module "$@"; }
swap=swap
check_advice
export LMOD_CMD=$lmod_cmd  # as the shell's init sets it: doctor, explain and resolve read it
check_cli_advice
