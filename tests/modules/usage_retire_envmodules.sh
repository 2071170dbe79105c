# Issue 21, item 4 on the real Environment Modules 5: the modulerc lines `retire --envmodules` writes
# (module-forbid --after DATE --nearly-message ...) are applied by modulecmd.tcl: within 14 days of
# the date a load warns, naming the replacement; from the date on the load is refused with the
# message; other modules load as before.
source "$(dirname "$0")/common.sh"
[[ -f $modulecmd ]] || skip "no Environment Modules at $modulecmd (scripts/deps.sh unpacks it)"
command -v tclsh8.6 >/dev/null || skip "no tclsh8.6"
retiring_release
tcl_tree
module() { tcl_module "$@"; }
export MODULERCFILE=$t/modulerc
soon=$(date -u -d '+7 days' +%F)
# A modulerc without its cookie is not written to: Environment Modules would refuse every command.
echo "module-hide --soft cudnn/8.0" >"$t/modulerc"
expect_rc 1 cc retire 9.0.0 --after "$soon" --envmodules "$t/modulerc"
has "does not start with #%Module"
[[ $(cat "$t/modulerc") == "module-hide --soft cudnn/8.0" ]] || fail "the modulerc was changed"
rm "$t/modulerc"  # a new one gets the cookie
expect_rc 0 cc retire 9.0.0 --after "$soon" --envmodules "$t/modulerc"
has "Environment Modules modulerc written: $t/modulerc"
[[ $(head -1 "$t/modulerc") == "#%Module" ]] || fail "a new modulerc without #%Module"
module load cudnn/9.0; msg
has "cuDNN 9.0.0 (cudnn/9.0) retires on $soon; use $repl"
[[ :$LOADEDMODULES: == *:cudnn/9.0:* ]] || fail "cudnn/9.0 did not load before its day"
module purge
# A past day is refused (it would retire the release at once); today retires it now.
expect_rc 2 cc retire 9.0.0 --after 2020-01-01 --envmodules "$t/modulerc"
has "--after 2020-01-01 is in the past"
today=$(date +%F)
expect_rc 0 cc retire 9.0.0 --after "$today" --envmodules "$t/modulerc"
out=$(cat "$t/modulerc")
count "module-forbid --after" 1
module load cudnn/9.0 || true; msg
has "cuDNN 9.0.0 (cudnn/9.0) retired on $today; use $repl"
[[ :${LOADEDMODULES:-}: != *:cudnn/9.0:* ]] || fail "cudnn/9.0 loaded after its day"
module load cudnn/9.1; msg
[[ :$LOADEDMODULES: == *:cudnn/9.1:* ]] || fail "cudnn/9.1 did not load: $out"
