# Sourced by every tests/install/*.sh scenario. CTest passes:
#   BUILD_DIR   the build tree to install from (cmake --install, cpack)
#   FAKES       the FAKE cuDNN releases (tests/fakecudnn)
#   CC          the C compiler for the clients
#   SOURCE      the source tree
#   ENVMODULES  Environment Modules, unpacked by scripts/deps.sh
source "$(dirname "${BASH_SOURCE[0]}")/../scenario.sh"
: "${BUILD_DIR:?}" "${FAKES:?}" "${CC:?}" "${SOURCE:?}" "${ENVMODULES:?}"
# An installed tree knows nothing but its own place: no variable of ours points it anywhere.
for v in "${!CUDNN_COMPAT_@}"; do unset "$v"; done
unset LOADEDMODULES _LMFILES_ _ModuleTable_ MODULEPATH LMOD_PACKAGE_PATH MODULES_SITECONFIG
export LMOD_IGNORE_CACHE=1 HOME=$t
# The shim's memo off (a file where its directory would be: tests/shim/common.sh says why), and
# none in this machine's /tmp; memo_installed.sh turns it on.
mkdir -m 700 "$t/run"
export XDG_RUNTIME_DIR=$t/run
: >"$t/run/cudnn-compat"
lmod_cmd=/usr/share/lmod/lmod/libexec/lmod
modulecmd=$ENVMODULES/usr/lib/x86_64-linux-gnu/modulecmd.tcl

# install_to DIR: cmake --install of the build tree under the prefix DIR.
install_to() { cmake --install "$BUILD_DIR" --prefix "$1" >/dev/null; }

# need_tools [--why TEXT] TOOL...: skips unless every TOOL is on the PATH ("no TOOL (TEXT)").
need_tools() {
  local why="" tool
  if [[ $1 == --why ]]; then why=" ($2)"; shift 2; fi
  for tool in "$@"; do
    command -v "$tool" >/dev/null || skip "no $tool$why"
  done
}

# deb_built: the .deb cpack makes from the build tree, in $t/pkg; its path in $deb. Slow (cpack
# builds the tree's preinstall target first), so a scenario checks its tools and its skips before.
# The scenarios that call it hold a lock on the build tree (tests/install/CMakeLists.txt).
deb_built() {
  expect_rc 0 cpack -G DEB --config "$BUILD_DIR/CPackConfig.cmake" -B "$t/pkg"
  deb=$(echo "$t"/pkg/cudnn-compat_*.deb)
  [[ -f $deb ]] || fail "cpack made no .deb: $(ls "$t/pkg")"
}

# site_map: the map an admin would write for the FAKE releases (with the modules they come from),
# and a [[require]] rule for the programs under $t/apps: built with cuDNN 5.1.
site_map() {
  echo 'schema = 1'
  echo '[policy]'
  echo 'rule = "nvidia"'
  local v m
  for v in 5.0.5:cudnn/5.0 5.1.10:cudnn/5.1; do
    m=${v#*:} v=${v%%:*}
    printf '[[cudnn]]\nversion = "%s"\nlib = "%s"\ncuda = "8.0"\nmodule = "%s"\n' \
      "$v" "$FAKES/$v/lib64" "$m"
  done
  printf '[[require]]\nmatch = "%s/apps/*"\ncudnn = "5.1"\n' "$t"
}

# tf2016_client: the TensorFlow-2016-like program of tests/shim, built into $t/apps/tf2016.
tf2016_client() {
  mkdir -p "$t/apps"
  "$CC" -o "$t/apps/tf2016" "$SOURCE/tests/shim/tf2016_client.c" -ldl
}

# app_modules DIR: the application modules beside the generated cuDNN ones (Lua and Tcl trees).
app_modules() {
  mkdir -p "$1/lua/tensorflow" "$1/tcl/tensorflow"
  echo 'cudnn_requires("5.1")' >"$1/lua/tensorflow/1.0.lua"
  printf '#%%Module1.0\ncudnn-requires 5.1\n' >"$1/tcl/tensorflow/1.0"
}

# lmod / tcl PREFIX ARGS...: `module ARGS` with the hook of the installed tree at PREFIX, the
# module trees under $t/modules; what the command printed lands in $out (line wrapping undone).
lmod() {
  local prefix=$1 rc=0; shift
  eval "$(MODULEPATH=$t/modules/lua LMOD_PACKAGE_PATH=$prefix/share/cudnn-compat/lmod \
    "$lmod_cmd" bash "$@" 2>"$t/msg")" || rc=$?
  out=$(tr '\n' ' ' <"$t/msg" | tr -s ' ')
  return $rc
}
tcl() {
  local prefix=$1 rc=0; shift
  eval "$(MODULEPATH=$t/modules/tcl MODULES_SITECONFIG=$prefix/share/cudnn-compat/envmodules/siteconfig.tcl \
    tclsh8.6 "$modulecmd" bash "$@" 2>"$t/msg")" || rc=$?
  out=$(tr '\n' ' ' <"$t/msg" | tr -s ' ')
  return $rc
}
need_module_systems() {
  [[ -x $lmod_cmd ]] || skip "no Lmod (scripts/deps.sh installs it)"
  [[ -f $modulecmd ]] || skip "no Environment Modules in $ENVMODULES (scripts/deps.sh unpacks it)"
}
misfit="tensorflow/1.0 was built with cuDNN 5.1 but cudnn/5.0 provides 5.0.5"
