# Issue 21 re-test, items 2-4: `retire` writes every file it was given (admin.list, modulerc, the
# map) or none of them; --dry-run meets the same refusals a real run would (a directory that is
# not there, a directory where the file should be, a modulerc whose cookie Environment Modules
# refuses); and a modulerc cookie is accepted only as modulecmd.tcl would (#%Module, optionally
# with a version no newer than the installed Environment Modules: #%Module99.0 is refused).
source "$(dirname "$0")/common.sh"
retiring_release
[[ -f $modulecmd ]] && export MODULES_CMD=$modulecmd  # the installed version bounds the cookie
soon=$(date -u -d '+30 days' +%F)
snapshot() { { cat "$t/map.toml"; cat "$t/admin.list" "$t/modulerc" 2>/dev/null || true; } | sha256sum; }
no_leftovers() {
  local left; left=$(find "$t" -name '*.tmp.*')
  [[ -z $left ]] || fail "temporary files left behind: $left"
}

# 2. An admin.list it can write and a modulerc it must not (no cookie): nothing is written.
printf 'cudnn/5.0: the admins keep this\n\n' >"$t/admin.list"
echo "module-hide --soft cudnn/8.0" >"$t/modulerc"
before=$(snapshot)
expect_rc 1 cc retire 9.0.0 --after "$soon" --lmod "$t/admin.list" --envmodules "$t/modulerc"
has "does not start with #%Module"
has "nothing written"
lacks "admin.list written"
[[ $(snapshot) == "$before" ]] || fail "retire wrote the admin.list (or the map) and then refused the modulerc"
no_leftovers
# The other way round: a modulerc it can write, an admin.list in a directory that is not there.
printf '#%%Module1.0\n' >"$t/modulerc"
before=$(snapshot)
expect_rc 1 cc retire 9.0.0 --after "$soon" --lmod "$t/gone/admin.list" --envmodules "$t/modulerc"
has "$t/gone/admin.list"
[[ $(snapshot) == "$before" ]] || fail "retire wrote the modulerc (or the map) and then failed on the admin.list"
no_leftovers

# 3. --dry-run refuses what a real run refuses, with the same line and exit status.
mkdir "$t/a-directory"
echo "module-hide --soft cudnn/8.0" >"$t/bad.modulerc"
for args in "--lmod $t/gone/admin.list" "--lmod $t/a-directory" "--envmodules $t/bad.modulerc"; do
  before=$(snapshot)
  # shellcheck disable=SC2086  # $args is two words
  expect_rc 1 cc retire 9.0.0 --after "$soon" $args
  real=$(grep -F "retire: " <<<"$out" | head -1)
  [[ -n $real ]] || fail "no refusal from the real run: $out"
  # shellcheck disable=SC2086
  expect_rc 1 cc retire 9.0.0 --after "$soon" --dry-run $args
  has "$real"
  lacks "dry run: nothing written; a real run can write"
  [[ $(snapshot) == "$before" ]] || fail "a refused run changed a file ($args)"
  no_leftovers
done
# And a dry run that can write everything says so, and changes nothing.
before=$(snapshot)
expect_rc 0 cc retire 9.0.0 --after "$soon" --dry-run --lmod "$t/admin.list" --envmodules "$t/modulerc"
has "dry run: nothing written; a real run can write every file"
[[ $(snapshot) == "$before" ]] || fail "--dry-run wrote"
no_leftovers

# 4. The cookie as modulecmd.tcl reads it: a version newer than the installed one is refused.
for cookie in '#%Module99.0' '#%Module5.99' '#%Modulefoo'; do
  printf '%s\nmodule-hide --soft cudnn/8.0\n' "$cookie" >"$t/modulerc"
  before=$(snapshot)
  expect_rc 1 cc retire 9.0.0 --after "$soon" --envmodules "$t/modulerc"
  has "starts with $cookie"
  [[ $(snapshot) == "$before" ]] || fail "a modulerc starting $cookie was written to"
done
if [[ -f $modulecmd ]] && command -v tclsh8.6 >/dev/null; then
  # Environment Modules itself refuses such a file: the check is no stricter than the need.
  printf '#%%Module5.99\nmodule-hide --soft cudnn/8.0\n' >"$t/modulerc"
  tcl_tree
  MODULERCFILE=$t/modulerc tclsh8.6 "$modulecmd" bash avail >/dev/null 2>"$t/msg" || true
  msg
  has "requires at least Modules version 5.99"
fi
for cookie in '#%Module' '#%Module1.0' '#%Module4.6#' '#%Module1.0 # a comment'; do
  printf '%s\nmodule-hide --soft cudnn/8.0\n' "$cookie" >"$t/modulerc"
  expect_rc 0 cc retire 9.0.0 --after "$soon" --envmodules "$t/modulerc"
  [[ $(head -1 "$t/modulerc") == "$cookie" ]] || fail "the cookie line changed"
  grep -q "module-forbid --after $soon" "$t/modulerc" || fail "no stanza after $cookie"
done
