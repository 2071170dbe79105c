# cudnn-compat(1) is rendered from the program's own options: man renders it without a warning,
# and every subcommand --help lists has its section with its options and its exit status.
. "$(dirname "$0")/common.sh"
page=$BUILD_DIR/share/man/man1/cudnn-compat.1
[[ -f $page ]] || fail "no man page at $page"
command -v man >/dev/null || skip "man is not installed (bash scripts/deps.sh installs man-db)"

warnings=$(MANWIDTH=80 man --warnings -l "$page" 2>&1 >/dev/null) || fail "man -l failed: $warnings"
[[ -z $warnings ]] || fail "man warns about the page:"$'\n'"$warnings"
out=$(MANWIDTH=80 man -l "$page" 2>/dev/null)
grep -qE "cudnn-compat +- +find, +check" <<<"$out" || fail "NAME does not say what it is:"$'\n'"$out"
for heading in SYNOPSIS DESCRIPTION COMMANDS ENVIRONMENT "EXIT STATUS" FILES "SEE ALSO"; do
  grep -q "^$heading" <<<"$out" || fail "no $heading section"
done

# The subcommands --help lists, each with a section, and that section's options and exit status.
help=$(cc --help)
subs=$(sed -n '/^Subcommands:/,/^$/p' <<<"$help" | awk 'NF && !/^Subcommands:/ {print $1}')
[[ -n $subs ]] || fail "--help lists no subcommands:"$'\n'"$help"
for sub in $subs; do
  [[ $sub == map ]] && sub="map validate"  # map has subcommands of its own: map validate, map show
  grep -q "^   cudnn-compat $sub\$" <<<"$out" || fail "no section for '$sub'"
  # shellcheck disable=SC2086
  sub_help=$(cc $sub --help)
  section=$(awk -v h="   cudnn-compat $sub" '$0 == h {on = 1; next} on && /^   cudnn-compat / {exit} on' <<<"$out")
  for opt in $(grep -oE '^  (-[a-z],)?--[a-z-]+' <<<"$sub_help" | sed 's/.*,//; s/^ *//'); do
    [[ $opt == --help ]] && continue
    grep -qF -- "$opt" <<<"$section" || fail "'$sub' section lacks $opt"
  done
  # The exit status as --help says it, word for word (man fills and justifies the lines).
  exit_line=$(grep -m1 '^Exit status:' <<<"$sub_help" | tr -s ' ')
  grep -qF -- "$exit_line" <<<"$(tr -s ' \n' ' ' <<<"$section")" ||
    fail "'$sub' section lacks '$exit_line'"
done

# cudnn-compat-map(5): the example map's keys and the derived files' contract (docs/contract.md),
# rendered without a warning.
page5=$BUILD_DIR/share/man/man5/cudnn-compat-map.5
[[ -f $page5 ]] || fail "no man page at $page5"
warnings=$(MANWIDTH=80 man --warnings -l "$page5" 2>&1 >/dev/null) || fail "man -l failed: $warnings"
[[ -z $warnings ]] || fail "man warns about cudnn-compat-map(5):"$'\n'"$warnings"
out=$(MANWIDTH=80 man -l "$page5" 2>/dev/null)
for heading in NAME SYNOPSIS DESCRIPTION FORMAT FILES "SEE ALSO"; do
  grep -q "^$heading" <<<"$out" || fail "cudnn-compat-map(5) has no $heading section"
done
root=$(cd "$(dirname "$0")/../.." && pwd)
# Every key the example map sets, and every verdict word of the contract's trust rule.
for key in $(grep -oE '^#? ?[a-z_]+ = ' "$root/share/map.toml.example" | tr -d '#= ' | sort -u); do
  has "$key ="
done
for verdict in $(grep -oE '^[0-9]+\. `[a-z-]+`' "$root/docs/contract.md" | grep -oE '[a-z-]+`$' | tr -d '`'); do
  has "$verdict"
done
has "map.toml.decide"
