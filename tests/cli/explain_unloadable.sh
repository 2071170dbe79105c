# A cuDNN file the loader found and could not load (unreadable, 32-bit, a noexec mount, cut short)
# is not "not found": explain names the file, the loader's reason and what mends it, in words and in
# --json (an outside tester's finding: read as the one asked for missing). And a link lacking a
# function a later 9.x added says which release added it.
source "$(dirname "$0")/common.sh"
unset CUDNN_COMPAT_MAP
expect_rc 0 cc explain 'Could not load library libcudnn_cnn_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object file: Permission denied'
has "what happened: the loader found libcudnn_ops_infer.so.8 but could not load it: Permission denied"
has "fix: make libcudnn_ops_infer.so.8 and each directory above it readable by this user"
lacks "found no"

expect_rc 0 cc explain 'Could not load library libcudnn_cnn_infer.so.8. Error: libcudnn_ops_infer.so.8: cannot open shared object file: No such file or directory'
has "the loader found no libcudnn_ops_infer.so.8 on its search path"

expect_rc 0 cc explain 'OSError: /scratch/env/lib/libcudnn.so.9: failed to map segment from shared object'
has "the loader found libcudnn.so.9 but could not load it: failed to map segment from shared object"
has "mounted noexec"

expect_rc 0 cc --json explain 'Could not load library libcudnn_cnn_infer.so.8. Error: libcudnn_cnn_infer.so.8: wrong ELF class: ELFCLASS32'
python3 - "$out" <<'PY' || fail "unexpected finding: $out"
import json, sys
f = json.loads(sys.argv[1])[0]
assert (f["kind"], f["library"], f["unloadable"]) == \
    ("library-not-found", "libcudnn_cnn_infer.so.8", "wrong ELF class: ELFCLASS32"), f
assert "another (32-bit, or another CPU)" in f["fixes"][0], f
PY

expect_rc 0 cc explain "/usr/bin/ld: app.o: in function \`main': app.cpp:(.text+0x1a4): undefined reference to \`cudnnBackendPopulateCudaGraph'"
has "needs cuDNN 9.5 or newer"
has "cudnn-compat resolve libcudnn.so.9 --require 9.5"
