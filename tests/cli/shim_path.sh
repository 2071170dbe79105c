# shim-path names the shim beside this cudnn-compat, and that file really is the audit module.
source "$(dirname "$0")/common.sh"
expect_rc 0 cc shim-path
path=$out
[[ $path == /*/lib/cudnn-compat/libcudnn-compat.so ]] || fail "unexpected path: $path"
nm -D --defined-only "$path" | grep -q " la_objsearch$" || fail "$path has no la_objsearch"
expect_rc 0 cc --json shim-path
has "\"exists\": true"
