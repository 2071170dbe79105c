# The Lmod site package on the real Lmod (see check_hooks in common.sh).
source "$(dirname "$0")/common.sh"
[[ -x $lmod_cmd ]] || skip "no Lmod at $lmod_cmd (scripts/deps.sh installs it)"
lmod_tree
module() { lmod_module "$@"; }
swap=swap

# Every generated modulefile passes Lmod's own syntax check, which does catch a broken one.
for m in "${generated[@]}"; do
  expect_rc 0 "$lmod_cmd" bash --checkSyntax load "$m"
done
mkdir -p "$t/lua/broken" && echo 'setenv("X", ' >"$t/lua/broken/1.lua"
expect_rc 1 "$lmod_cmd" bash --checkSyntax load broken/1
rm -r "$t/lua/broken"

check_hooks
