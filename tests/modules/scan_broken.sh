# A broken cuDNN modulefile is reported with the module system's own error, not as "(nothing)",
# on both systems (issue 12, low).
source "$(dirname "$0")/common.sh"
[[ -x $lmod_cmd && -f $modulecmd ]] || skip "needs Lmod and Environment Modules (scripts/deps.sh)"
site_tree
printf 'prepend_path("LD_LIBRARY_PATH", "/x")\nbogus_call("a")\n' >"$t/site/lua/Core/cudnn/4.0.lua"
printf '#%%Module1.0\nprepend-path LD_LIBRARY_PATH /x\nbogus-command a\n' >"$t/site/tcl/Core/cudnn/4.0"
site_lmod
expect_rc 0 "$CUDNN_COMPAT" scan --modules lmod
has "module cudnn/4.0: its modulefile is broken: Lmod has detected the following error:"
has "attempt to call a nil value (global 'bogus_call')"
site_tcl
expect_rc 0 env MODULES_CMD="$modulecmd" "$CUDNN_COMPAT" scan --modules envmodules
has "module cudnn/4.0: its modulefile is broken: Module ERROR: invalid command name \"bogus-command\" (file \"$t/site/tcl/Core/cudnn/4.0\" line 3)"
