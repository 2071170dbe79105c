# scan --modules auto asks the shell's own module system: Environment Modules in a shell that runs
# it, though Lmod is installed too; Lmod in an Lmod shell (issue 12, low).
source "$(dirname "$0")/common.sh"
[[ -x $lmod_cmd && -f $modulecmd ]] || skip "needs Lmod and Environment Modules (scripts/deps.sh)"
site_tree
site_tcl
expect_rc 0 env MODULES_CMD="$modulecmd" MODULESHOME="$ENVMODULES/usr/share/modules" \
  "$CUDNN_COMPAT" --json scan --modules auto
has '"system": "envmodules"'
site_lmod
expect_rc 0 env LMOD_CMD="$lmod_cmd" MODULESHOME=/usr/share/lmod/lmod "$CUDNN_COMPAT" --json scan --modules auto
has '"system": "lmod"'
