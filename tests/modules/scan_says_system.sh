# scan --modules auto says which module system it asked, and about which tree: a site with both
# installed can tell which one its map came from (issue 25, low).
source "$(dirname "$0")/common.sh"
[[ -x $lmod_cmd && -f $modulecmd ]] || skip "needs Lmod and Environment Modules (scripts/deps.sh)"
site_tree
site_tcl
expect_rc 0 env MODULES_CMD="$modulecmd" MODULESHOME="$ENVMODULES/usr/share/modules" \
  "$CUDNN_COMPAT" scan --modules auto
has "scan: asked Environment Modules ($modulecmd) about MODULEPATH=$MODULEPATH"
site_lmod
expect_rc 0 env LMOD_CMD="$lmod_cmd" MODULESHOME=/usr/share/lmod/lmod "$CUDNN_COMPAT" scan --modules auto
has "scan: asked Lmod (/usr/share/lmod/lmod/libexec/spider) about MODULEPATH=$MODULEPATH"
expect_rc 0 env -u LMOD_DIR PATH=/usr/bin:/bin "$CUDNN_COMPAT" scan --modules none --search "$FAKES/9.1.0"
lacks "scan: asked"
