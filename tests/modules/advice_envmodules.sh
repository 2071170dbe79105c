# The advice of the Environment Modules siteconfig works when followed: switch (a load would fail
# on EasyBuild's conflict), not a hidden module, the application's toolchain first (issue 12 item
# 5; see check_advice in common.sh).
source "$(dirname "$0")/common.sh"
[[ -f $modulecmd ]] || skip "no Environment Modules at $modulecmd (scripts/deps.sh unpacks it)"
command -v tclsh8.6 >/dev/null || skip "no tclsh8.6"
format=tcl
advice_site
export MODULES_SITECONFIG=$SHARE/envmodules/siteconfig.tcl
module() { tcl_module "$@"; }
swap=switch
check_advice
export MODULES_CMD=$modulecmd  # as the shell's init sets it: doctor, explain and resolve read it
check_cli_advice
