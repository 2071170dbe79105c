# An Environment Modules misfit is told from map.toml.misfits without starting module-check
# (issue 12 item 9: a process start costs the hook more than the check), in the very words
# module-check prints; a misfit whose advice depends on the application's toolchain, or a stale
# table, still asks module-check.
source "$(dirname "$0")/common.sh"
[[ -f $modulecmd ]] || skip "no Environment Modules at $modulecmd (scripts/deps.sh unpacks it)"
command -v tclsh8.6 >/dev/null || skip "no tclsh8.6"
tcl_tree
module() { tcl_module "$@"; }
counted_starts

told_from_table envmodules "$t/tcl/tensorflow/1.0" "module switch"

# Two applications beside a module that fits neither: the table's advice is for one application
# alone, so module-check answers, with a release that fits both or the word that none does.
module load cudnn/5.0 tensorflow/1.0 pytorch/2.1 || true; msg
[[ -s $t/started ]] || fail "two applications' misfits were told from the table"
has "No cuDNN module fits both pytorch/2.1 (cuDNN 8.9 for CUDA 12) and tensorflow/1.0 (cuDNN 5.1)"
occurs "was built with" 2
module purge
rm -f "$t/started"

# Strict: module-check's error fails the command.
strict_from_engine "ERROR: cudnn-compat: tensorflow/1.0 was built with cuDNN 5.1 but cudnn/5.0 provides 5.0.5"
module purge
# ... also beside an application whose need cannot be read: that one is said, the others checked.
mkdir -p "$t/tcl/jax" && printf '#%%Module1.0\ncudnn-requires 9.x\n' >"$t/tcl/jax/0.4"
rc=0; module load tensorflow/1.0 jax/0.4 cudnn/5.0 || rc=$?; msg
[[ $rc != 0 ]] || fail "strict mode let the misfit through beside an unreadable need"
has "ERROR: cudnn-compat: tensorflow/1.0 was built with cuDNN 5.1 but cudnn/5.0 provides 5.0.5"
has "cannot check jax/0.4: '9.x' is not a version"
lacks "cudnn-compat: cudnn-compat:"
[[ -z ${LOADEDMODULES:-} ]] || fail "the environment changed: $LOADEDMODULES"
module purge
lenient_map

# A table not to believe - cut short, made for a map since replaced by another file of the same
# size and mtime, or beside a map that is a link - is left for module-check, which answers.
not_believed() {
  rm -f "$t/started"
  module load cudnn/5.0 tensorflow/1.0 || true; msg
  has "tensorflow/1.0 was built with cuDNN 5.1 but cudnn/5.0 provides 5.0.5"
  [[ -s $t/started ]] || fail "$1: the misfits table was believed"
  module purge
}
validated() { cc map validate "$t/map.toml" >/dev/null; }
validated
# Cut right after the line this misfit needs: all it lacks is the end.
line=$(grep -n "^W	[0-9]*	5.1	" "$t/map.toml.misfits" | cut -d: -f1 | head -1)
[[ -n $line ]] || fail "no misfit line for 5.1 in: $(cat "$t/map.toml.misfits")"
cp -p "$t/map.toml.misfits" "$t/misfits.saved"
head -n "$line" "$t/misfits.saved" >"$t/map.toml.misfits"
touch -r "$t/misfits.saved" "$t/map.toml.misfits"
not_believed "cut short"
cp -p "$t/misfits.saved" "$t/map.toml.misfits"
# Another map of the same size and mtime: module "cudnn/5.1" became "cudnn/5.9" (the tables are
# for the former; a release is what its library reports, so the new map shows in the module its
# advice names, not in a version).
cp -p "$t/map.toml" "$t/map.saved"
sed 's|"cudnn/5\.1"|"cudnn/5.9"|' "$t/map.toml" >"$t/map.new" && touch -r "$t/map.toml" "$t/map.new"
mv "$t/map.new" "$t/map.toml"
rm -f "$t/started"
module load cudnn/5.0 tensorflow/1.0 || true; msg
has "tensorflow/1.0 was built with cuDNN 5.1 but cudnn/5.0 provides 5.0.5"
has "module switch cudnn/5.0 cudnn/5.9"
[[ -s $t/started ]] || fail "another map: the misfits table was believed"
module purge
mv "$t/map.saved" "$t/map.toml"
validated
mv "$t/map.toml" "$t/map.real" && ln -s map.real "$t/map.toml"
not_believed "a linked map"
rm "$t/map.toml" && mv "$t/map.real" "$t/map.toml"
echo '# edited' >>"$t/map.toml"
not_believed "a stale table (the map changed since)"
# A map touched but not changed keeps its tables (its content decides).
validated
touch -d '+2 seconds' "$t/map.toml"
rm -f "$t/started"
module load cudnn/5.0 tensorflow/1.0 || true; msg
has "tensorflow/1.0 was built with cuDNN 5.1 but cudnn/5.0 provides 5.0.5"
[[ ! -e $t/started ]] || fail "a touched map lost its tables: $(cat "$t/started")"
module purge

# A map that grew to 4 GB after validation is not read at module load.
huge_map_not_read

# Advice that depends on the application's toolchain (an EasyBuild and a Spack release both fit):
# module-check reads the application's modulefile.
rm -f "$t/started"
format=tcl
advice_site
module load cuDNN/8.9.7.29-CUDA-12.2.0 jax/0.4.23 || true; msg
has "Use: module switch cuDNN/8.9.7.29-CUDA-12.2.0 cuDNN/9.0.0.312-CUDA-12.2.0"
[[ -s $t/started ]] || fail "a toolchain-dependent misfit was answered without module-check"

