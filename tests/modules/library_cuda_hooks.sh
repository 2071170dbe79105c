# One rule in every language: a map entry's `cuda` that its library contradicts (9.0.0 listed for
# CUDA 11.8, the FAKE 9.0.0 built for 12.2; map validate warns) is read as the library says by the
# shim and resolve (C, C++), and by both hooks (Lua, Tcl), which read the fits and misfits tables:
# those were written from the map's word, and the hooks warned "built for CUDA 11.8" and advised
# 9.1.0 for a module the process keeps (an outside tester's finding).
source "$(dirname "$0")/common.sh"
[[ -x $lmod_cmd ]] || skip "no Lmod at $lmod_cmd (scripts/deps.sh installs it)"
[[ -f $modulecmd ]] || skip "no Environment Modules at $modulecmd (scripts/deps.sh unpacks it)"
{
  printf 'schema = 1\n[policy]\nrule = "nvidia"\nprefer = "oldest"\n'
  printf '[[cudnn]]\nversion = "9.0.0"\nlib = "%s"\ncuda = "11.8"\nmodule = "cudnn/9.0.0"\n' "$FAKES/9.0.0/lib64"
  printf '[[cudnn]]\nversion = "9.1.0"\nlib = "%s"\ncuda = "12.4"\nmodule = "cudnn/9.1.0"\n' "$FAKES/9.1.0/lib64"
} >"$t/map.toml"
expect_rc 0 cc map validate "$t/map.toml"
has "built for CUDA 12.2, not CUDA 11.8"
LD_LIBRARY_PATH=$FAKES/9.0.0/lib64 expect_rc 0 cc resolve libcudnn.so.9 --require 9.0 --cuda 12
has "libcudnn.so.9 -> $FAKES/9.0.0/lib64/libcudnn.so.9"

cc modulefiles --format lua -o "$t/lua" >/dev/null
mkdir -p "$t/lua/app" && echo 'cudnn_requires("9.0", {cuda = "12"})' >"$t/lua/app/3.0.lua"
cc modulefiles --format tcl -o "$t/tcl" >/dev/null
mkdir -p "$t/tcl/app" && printf '#%%Module1.0\ncudnn-requires 9.0 --cuda 12\n' >"$t/tcl/app/3.0"
for system in lmod tcl; do
  if [[ $system == lmod ]]; then
    export MODULEPATH=$t/lua LMOD_PACKAGE_PATH=$SHARE/lmod
  else
    export MODULEPATH=$t/tcl MODULES_SITECONFIG=$SHARE/envmodules/siteconfig.tcl
  fi
  ${system}_module load cudnn/9.0.0 app/3.0
  msg
  lacks "CUDA 11.8"
  lacks "cudnn/9.1.0"
  ${system}_module purge
done
