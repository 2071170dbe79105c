# An Lmod hierarchy (Spack's and EasyBuild's Core/<compiler>/...): a cuDNN module that is on
# MODULEPATH only once its compiler is loaded. scan records the parent (Lmod spider's parentAA) as
# the map's load_first, and the hook's advice loads it first: `module swap` to a module behind a
# compiler not loaded fails (an outside admin's finding: the advice named a module that could not
# be loaded). Of two fitting modules, the one the loaded compiler reaches comes first.
source "$(dirname "$0")/common.sh"
[[ -x $lmod_cmd ]] || skip "no Lmod at $lmod_cmd (scripts/deps.sh installs it)"
hierarchy_tree 5.0 5.1

expect_rc 0 "$CUDNN_COMPAT" scan --modules lmod --replace -o "$t/map.toml"  # over common.sh's map
grep -A4 '^version = "5.1.10"' "$t/map.toml" | grep -qx 'load_first = "gcc/12.2.0"' ||
  fail "scan did not record cudnn/5.1's parent: $(cat "$t/map.toml")"
grep -A4 '^version = "5.0.5"' "$t/map.toml" | grep -qx 'load_first = "gcc/11.3.0"' ||
  fail "scan did not record cudnn/5.0's parent: $(cat "$t/map.toml")"

# The misfit under gcc/11.3.0: the advice loads gcc/12.2.0 with cudnn/5.1, and works as printed.
module load gcc/11.3.0 tensorflow/1.0 cudnn/5.0 || true; msg
has "tensorflow/1.0 was built with cuDNN 5.1 but cudnn/5.0 provides 5.0.5"
# The compiler swap takes what gcc/11.3.0 put on MODULEPATH away: said (tensorflow/1.0, in Core,
# stays).
has "Use: module unload cudnn/5.0 && module load gcc/12.2.0 cudnn/5.1 (5.1.10; it loads gcc/12.2.0 in place of gcc/11.3.0: modules loaded for gcc/11.3.0 go inactive unless built for gcc/12.2.0 too)"
advice=$(grep -o 'Use: module [^(]*' "$t/msg" | head -1)
eval "${advice#Use: }" || fail "the advice failed: ${advice#Use: } ($(cat "$t/msg"))"
[[ :$LOADEDMODULES: == *:tensorflow/1.0:* && :$LOADEDMODULES: == *:cudnn/5.1:* ]] ||
  fail "after '${advice#Use: }': $LOADEDMODULES"
msg
lacks "was built with"
module purge

# Refused (on_module_mismatch = "error"): the command again, the parent first.
sed -i 's/^on_module_mismatch = "warn"$/on_module_mismatch = "error"/' "$t/map.toml"
grep -q '^on_module_mismatch = "error"' "$t/map.toml" || fail "no policy in the scanned map"
cc map validate "$t/map.toml" >/dev/null
rc=0; module load gcc/11.3.0 tensorflow/1.0 cudnn/5.0 || rc=$?; msg
[[ $rc != 0 && -z ${LOADEDMODULES:-} ]] || fail "strict mode loaded ${LOADEDMODULES:-}"
has "Use: module load gcc/12.2.0 tensorflow/1.0 cudnn/5.1 (5.1.10; it loads gcc/12.2.0 in place of gcc/11.3.0"
advice=$(grep -o 'Use: module [^(]*' "$t/msg" | head -1)
eval "${advice#Use: }" || fail "the advice failed: ${advice#Use: } ($(cat "$t/msg"))"
[[ :$LOADEDMODULES: == *:tensorflow/1.0:* && :$LOADEDMODULES: == *:cudnn/5.1:* ]] ||
  fail "after '${advice#Use: }': $LOADEDMODULES"
module purge

# explain names the same command, from the loaded modules of the user's shell.
module load gcc/11.3.0 cudnn/5.0 || true
expect_rc 0 "$CUDNN_COMPAT" explain "Loaded runtime CuDNN library: 5005 (compatibility version 5000) but source was compiled with 5103 (compatibility version 5100)"
has "module unload cudnn/5.0 && module load gcc/12.2.0 cudnn/5.1"
