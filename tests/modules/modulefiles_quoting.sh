# Generated modules quote what the map says whatever it holds: a release installed under a
# directory whose name has braces, brackets, a dollar, spaces and a trailing backslash loads on
# both module systems with that directory, exactly, on LD_LIBRARY_PATH, and runs nothing its name
# spells (the Tcl modules wrote {...}: a brace broke them, and [exec ...] in a name ran).
source "$(dirname "$0")/common.sh"
[[ -x $lmod_cmd && -f $modulecmd ]] || skip "needs Lmod and Environment Modules (scripts/deps.sh)"
command -v tclsh8.6 >/dev/null || skip "no tclsh8.6"
dir=$t/sw/'cu{dnn} $HOME [exec touch pwned] "q" }\'
mkdir -p "$t/sw" && cp -a "$FAKES/5.1.10" "$dir"
# A TOML literal string ('...') takes the name as it is.
printf "schema = 1\n[[cudnn]]\nversion = \"5.1.10\"\nlib = '%s/lib64'\ncuda = \"8.0\"\nmodule = \"cudnn/5.1\"\n" \
  "$dir" >"$t/map.toml"
expect_rc 0 cc map validate "$t/map.toml"
cd "$t"
for system in lmod tcl; do
  if [[ $system == lmod ]]; then
    expect_rc 0 cc modulefiles --format lua -o "$t/lua"
    module() { lmod_module "$@"; }; export MODULEPATH=$t/lua
  else
    expect_rc 0 cc modulefiles --format tcl -o "$t/tcl"
    module() { tcl_module "$@"; }; export MODULEPATH=$t/tcl
  fi
  module load cudnn/5.1; msg
  [[ :${LOADEDMODULES:-}: == *:cudnn/5.1:* ]] || fail "$system: not loaded: $out"
  [[ ${LD_LIBRARY_PATH:-} == "$dir/lib64"* ]] || fail "$system: LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}"
  [[ ${CUDNN_ROOT:-} == "$dir" ]] || fail "$system: CUDNN_ROOT=${CUDNN_ROOT:-}"
  [[ ! -e $t/pwned ]] || fail "$system: the directory's name ran as Tcl"
  module purge
done
# A CUDA module's name is one line, as any module's: --cuda-module with a newline (which ended the
# Lua string) is bad usage.
expect_rc 2 cc modulefiles --format lua -o "$t/cuda" --cuda-module $'cuda/{cuda}\nos.exit(1)'
has "a module name holds no control character"
[[ ! -e $t/cuda ]] || fail "--cuda-module with a newline wrote $(ls -R "$t/cuda")"
# The refusal shows the value on one line, its control characters written out (an escape
# sequence reached the terminal).
expect_rc 2 cc modulefiles --format lua -o "$t/cuda" --cuda-module $'cu\e[31m'
has "--cuda-module 'cu\\x1b[31m'"
[[ $out != *$'\e'* ]] || fail "the ESC reached the terminal: $out"
# {cuda} is the one placeholder, each one replaced; a misspelt one named a module that never exists.
for bad in 'CUDA/{CUDA}' 'CUDA/{cuda' 'CUDA/cuda}' 'CUDA/{cuda}}x'; do
  expect_rc 2 cc modulefiles --format lua -o "$t/cuda" --cuda-module "$bad"
  has "a brace outside {cuda}, the one placeholder"
done
[[ ! -e $t/cuda ]] || fail "a misspelt placeholder wrote $(ls -R "$t/cuda")"
expect_rc 0 cc modulefiles --format lua -o "$t/cuda" --cuda-module '{cuda}/{cuda}'
grep -rqF "8.0/8.0" "$t/cuda" || fail "both placeholders not replaced: $(cat "$t"/cuda/*/*.lua)"
