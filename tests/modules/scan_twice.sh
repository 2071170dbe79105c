# One cuDNN release installed twice, as an EasyBuild and a Spack module with their own directories:
# scan lists it once and says so, so that its own `map validate` accepts what it wrote, with and
# without --merge, through the real Lmod and the real Environment Modules (issue 12 item 1).
source "$(dirname "$0")/common.sh"
[[ -x $lmod_cmd && -f $modulecmd ]] || skip "needs Lmod and Environment Modules (scripts/deps.sh)"
lmod_tree
tcl_tree
cp -a "$FAKES/8.9.7" "$t/spack-8.9.7"
mkdir -p "$t/lua/cudnn" "$t/tcl/cudnn"
printf 'prepend_path("LD_LIBRARY_PATH", "%s")\n' "$t/spack-8.9.7/lib64" >"$t/lua/cudnn/8.9.7.29-12-abcdef.lua"
printf '#%%Module\nprepend-path LD_LIBRARY_PATH %s\n' "$t/spack-8.9.7/lib64" >"$t/tcl/cudnn/8.9.7.29-12-abcdef"
for system in lmod envmodules; do
  if [[ $system == lmod ]]; then tree=$t/lua; else tree=$t/tcl; fi
  scanned=$t/scanned-$system.toml
  expect_rc 0 env MODULEPATH="$tree" MODULES_CMD="$modulecmd" \
    "$CUDNN_COMPAT" scan --modules $system -o "$scanned"
  has "cuDNN 8.9.7 for CUDA 12.2 is already listed as module"
  [[ $(grep -c '^version = "8.9.7"$' "$scanned") == 1 ]] || fail "$system: 8.9.7 listed $(grep -c '^version = "8.9.7"$' "$scanned") times"
  expect_rc 0 "$CUDNN_COMPAT" map validate "$scanned"
  expect_rc 0 env MODULEPATH="$tree" MODULES_CMD="$modulecmd" \
    "$CUDNN_COMPAT" scan --modules $system --merge -o "$scanned"
  [[ $(grep -c '^version = "8.9.7"$' "$scanned") == 1 ]] || fail "$system: --merge listed 8.9.7 twice"
  expect_rc 0 "$CUDNN_COMPAT" map validate "$scanned"
done
