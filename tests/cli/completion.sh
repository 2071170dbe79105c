# The bash completion, written from the program's own options: subcommands, their options, option
# values that are paths (map files) and positional paths complete; an option's value is not taken
# for a subcommand.
. "$(dirname "$0")/common.sh"
script=$BUILD_DIR/share/bash-completion/completions/cudnn-compat
[[ -f $script ]] || fail "no completion script at $script"
# shellcheck disable=SC1090
. "$script"

# complete WORDS...: what bash offers for the last word (the one being typed), one per line.
complete_words() {
  COMP_WORDS=("$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _cudnn_compat
  out=$(printf '%s\n' "${COMPREPLY[@]}")
}

complete_words cudnn-compat res
[[ $out == resolve ]] || fail "'res' completes to: $out"
complete_words cudnn-compat ""
for sub in decode check map probe resolve scan explain doctor modulefiles shim-path; do has "$sub"; done
complete_words cudnn-compat map ""
has validate; has show
complete_words cudnn-compat resolve --r
has --require; has --rule; lacks --map

mkdir -p "$t/site" && touch "$t/site/map.toml" "$t/site/map.toml.decide"
cd "$t"
complete_words cudnn-compat resolve libcudnn.so.8 --map site/m
has site/map.toml
complete_words cudnn-compat map validate site/map
has site/map.toml
# The tables the tools derive beside it are no map to name.
lacks map.toml.decide
# Each option once; the hidden one (one node's part of doctor --nodes) not at all.
complete_words cudnn-compat doctor --
lacks --node-report
[[ $(grep -c -x -- --help <<<"$out") == 1 && $(grep -c -x -- --json <<<"$out") == 1 ]] ||
  fail "doctor's options, --help and --json not each once:"$'\n'"$out"
# The value of --rule is not a subcommand: the options after it are resolve's.
complete_words cudnn-compat --json resolve --rule nvidia --ma
[[ $out == --map ]] || fail "after --rule VALUE, '--ma' completes to: $out"
complete_words cudnn-compat decode --json 5005 ""
[[ -z $out ]] || fail "decode's values are not paths, yet completed: $out"

# The zsh completion comes from the same tables: every file it completes leaves the derived tables
# out (it offered map.toml.decide), and where zsh is installed it must at least parse.
zsh_script=$BUILD_DIR/share/zsh/site-functions/_cudnn-compat
grep -q "derived=('\*.cache' '\*.fits' '\*.misfits' '\*.decide')" "$zsh_script" ||
  fail "the zsh completion names no derived tables to leave out: $(grep -n derived= "$zsh_script")"
actions=$(grep -o ":_files[^']*" "$zsh_script")
[[ -n $actions ]] || fail "no file completion in the zsh script"
bad=$(grep -v -x ':_files -F derived' <<<"$actions" || true)
[[ -z $bad ]] || fail "zsh file completions that offer the derived tables:"$'\n'"$bad"
if command -v zsh >/dev/null; then
  zsh -n "$zsh_script" || fail "the zsh completion does not parse"
fi
