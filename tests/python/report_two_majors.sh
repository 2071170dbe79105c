# A process with two majors: an old library that links libcudnn.so.8 and torch, whose library
# links libcudnn.so.9 and pins 9.23.0. torch's pin is its family's need, not the cuDNN 8's: the
# report at exit said "libcudnn.so.8: needs 9.23.0 ... from the pin of torch" and advised doctor
# for "no one cuDNN meets every pin" (helper 97), under LD_AUDIT where each family fits, and
# under LD_PRELOAD in place of the LD_AUDIT advice torch's unseen link needs.
source "$(dirname "$0")/common.sh"
make_venv "$t/venv"
wheel_cudnn "$site" 9.20.0
linking_torch "$site" "nvidia-cudnn-cu12==9.23.0.12"
"$CC" -shared -fPIC -o "$t/libold.so" -x c - -L"$FAKES/8.1.0/lib64" -l:libcudnn.so.8 \
  -Wl,--enable-new-dtags -Wl,-rpath,"$FAKES/8.1.0/lib64" <<'C'
#include <stddef.h>
size_t cudnnGetVersion(void);
size_t old_cudnn(void) { return cudnnGetVersion(); }
C
printf 'schema = 1\n[[cudnn]]\nversion = "9.23.0"\nlib = "%s"\nmodule = "cudnn/9.23"\n' \
  "$FAKES/9.23.0/lib64" >"$t/map.toml"
export VIRTUAL_ENV=$t/venv CUDNN_COMPAT_REPORT=1
load='import ctypes, sys
for path, f in zip(sys.argv[1::2], sys.argv[2::2]): print(f, getattr(ctypes.CDLL(path), f)())'
expect_rc 0 audit "$t/venv/bin/python" -c "$load" "$t/libold.so" old_cudnn "$lib" torch_cudnn
has "old_cudnn 8100"
has "torch_cudnn 92300"
lacks "libcudnn.so.8: needs 9.23.0"
has "report: next run: nothing to change"
expect_rc 0 preload "$t/venv/bin/python" -c "$load" "$lib" torch_cudnn "$t/libold.so" old_cudnn
has "torch_cudnn 92000"
lacks "libcudnn.so.8: needs 9.23.0"
has "report: next run: export LD_AUDIT=\$(cudnn-compat shim-path); unset LD_PRELOAD"
