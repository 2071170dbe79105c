# An application modulefile of standard Environment Modules commands only, with and without the
# siteconfig (see check_standard_form in common.sh).
source "$(dirname "$0")/common.sh"
[[ -f $modulecmd ]] || skip "no Environment Modules at $modulecmd (scripts/deps.sh unpacks it)"
command -v tclsh8.6 >/dev/null || skip "no tclsh8.6"
tcl_tree
mkdir -p "$t/tcl/plain"
printf '#%%Module1.0\nprepend-path CUDNN_COMPAT_NEEDS plain/1.0=5.1\nsetenv CUDNN_COMPAT_REQUIRE 5.1\n' \
  >"$t/tcl/plain/1.0"
module() { tcl_module "$@"; }
site=MODULES_SITECONFIG
check_standard_form
