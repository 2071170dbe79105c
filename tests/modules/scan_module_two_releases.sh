# A module that adds the directories of two cuDNN releases (one module name on two releases),
# under Lmod and Environment Modules: scan leaves the second place out and says so, and writes a
# map that `map validate` accepts.
source "$(dirname "$0")/common.sh"
[[ -x $lmod_cmd && -f $modulecmd ]] || skip "needs Lmod and Environment Modules (scripts/deps.sh)"
mkdir -p "$t/lua/cudnn" "$t/tcl/cudnn"
printf 'prepend_path("LD_LIBRARY_PATH", "%s")\n' "$FAKES/5.1.10/lib64" "$FAKES/5.0.5/lib64" \
  >"$t/lua/cudnn/5.lua"
{
  echo '#%Module1.0'
  printf 'prepend-path LD_LIBRARY_PATH %s\n' "$FAKES/5.1.10/lib64" "$FAKES/5.0.5/lib64"
} >"$t/tcl/cudnn/5"
for system in lmod envmodules; do
  [[ $system == lmod ]] && tree=$t/lua || tree=$t/tcl
  MODULEPATH=$tree expect_rc 0 env MODULES_CMD="$modulecmd" "$CUDNN_COMPAT" scan --modules $system \
    -o "$t/$system.toml"
  has "module cudnn/5 is listed for cuDNN"
  has "not added"
  expect_rc 0 cc map validate "$t/$system.toml"
  out=$(cat "$t/$system.toml")
  count 'module = "cudnn/5"' 1
done
