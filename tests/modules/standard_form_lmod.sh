# An application modulefile of standard Lmod commands only, with and without the site package
# (see check_standard_form in common.sh); Lmod's spider, which runs without it, lists it.
source "$(dirname "$0")/common.sh"
[[ -x $lmod_cmd ]] || skip "no Lmod at $lmod_cmd (scripts/deps.sh installs it)"
lmod_tree
mkdir -p "$t/lua/plain"
printf 'prepend_path("CUDNN_COMPAT_NEEDS", "plain/1.0=5.1")\nsetenv("CUDNN_COMPAT_REQUIRE", "5.1")\n' \
  >"$t/lua/plain/1.0.lua"
module() { lmod_module "$@"; }
site=LMOD_PACKAGE_PATH
check_standard_form
expect_rc 0 env -u LMOD_PACKAGE_PATH /usr/share/lmod/lmod/libexec/spider -o spider-json "$t/lua"
has '"fullName":"plain\/1.0"'
