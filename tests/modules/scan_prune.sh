# scan --merge says which entries' modules left the module tree and keeps them; --prune drops
# them (issue 12, low), on both systems.
source "$(dirname "$0")/common.sh"
[[ -x $lmod_cmd && -f $modulecmd ]] || skip "needs Lmod and Environment Modules (scripts/deps.sh)"
site_tree
for system in lmod envmodules; do
  if [[ $system == lmod ]]; then site_lmod; f=$t/site/lua/Core/cudnn/5.1.lua; else site_tcl; f=$t/site/tcl/Core/cudnn/5.1; fi
  map=$t/map-$system.toml
  scan() { expect_rc 0 env MODULES_CMD="$modulecmd" "$CUDNN_COMPAT" scan --modules $system --merge -o "$map" "$@"; }
  expect_rc 0 env MODULES_CMD="$modulecmd" "$CUDNN_COMPAT" scan --modules $system -o "$map"
  mv "$f" "$t/removed"
  scan
  has "cuDNN 5.1.10 (cudnn/5.1) in $t/site/opt/cudnn/5.1/lib64: module cudnn/5.1 is no longer in the module tree; kept (--prune drops it)"
  grep -qF 'module = "cudnn/5.1"' "$map" || fail "$system: --merge dropped cudnn/5.1 without --prune"
  scan --prune
  has "scan: dropped cuDNN 5.1.10 (cudnn/5.1) in $t/site/opt/cudnn/5.1/lib64 (module cudnn/5.1 is no longer in the module tree)"
  ! grep -qF 'module = "cudnn/5.1"' "$map" || fail "$system: --prune kept cudnn/5.1"
  expect_rc 0 "$CUDNN_COMPAT" map validate "$map"
  mv "$t/removed" "$f"
done
