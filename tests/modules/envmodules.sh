# The siteconfig on the real Environment Modules 5.2 (see check_hooks in common.sh).
source "$(dirname "$0")/common.sh"
[[ -f $modulecmd ]] || skip "no Environment Modules at $modulecmd (scripts/deps.sh unpacks it)"
command -v tclsh8.6 >/dev/null || skip "no tclsh8.6"
tcl_tree
module() { tcl_module "$@"; }
swap=switch

# Every generated modulefile evaluates without an error under `module display` (Environment
# Modules' `lint` needs nagelfar, which Debian does not package); a broken one is caught.
for m in "${generated[@]}"; do
  expect_rc 0 tclsh8.6 "$modulecmd" bash display "$m"
  lacks "ERROR"
done
mkdir -p "$t/tcl/broken" && printf '#%%Module\nsetenv X {\n' >"$t/tcl/broken/1"
expect_rc 0 tclsh8.6 "$modulecmd" bash display broken/1
has "Module ERROR: missing close-brace"
rm -r "$t/tcl/broken"

check_hooks
