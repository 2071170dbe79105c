# LD_AUDIT naming a libcudnn-compat.so that ld.so cannot load - missing, empty, a directory, a bare
# name off the search path, two entries joined by a space (LD_AUDIT splits at colons alone) - or a
# copy of the shim without its engine beside it: the process keeps the wheel's FAKE 9.20.0 against
# torch's 9.23 pin, and doctor said "ok: the shim is on (LD_AUDIT)" and "ok: torch", resolve named
# 9.23.0 as what the process gets (helper 99). Now the shim is off, with why.
source "$(dirname "$0")/common.sh"
torch_above_its_wheel
mkdir -p "$t/empty" "$t/dir/libcudnn-compat.so" "$t/copy"
: >"$t/empty/libcudnn-compat.so"
cp "$SHIM" "$t/copy/libsite-cudnn.so"
check() {  # check LD_AUDIT-VALUE WHY
  expect_rc 0 env LD_AUDIT="$1" "$t/venv/bin/python" -c "$load" "$lib"
  has "cuDNN 92000"
  LD_AUDIT=$1 expect_rc 1 cc doctor
  has "problem: the shim is off: LD_AUDIT names $2"
  has "which does not fit its pin"
  lacks "ok: torch"
  LD_AUDIT=$1 expect_rc 0 cc resolve libcudnn.so.9 --for "$t/venv/bin/python"
  has "but without the shim the process keeps $site/nvidia/cudnn/lib/libcudnn.so.9 (cuDNN 9.20.0"
}
check /nonexistent/libcudnn-compat.so "/nonexistent/libcudnn-compat.so, which is not there"
check "$t/empty/libcudnn-compat.so" "$t/empty/libcudnn-compat.so, which is no shared object"
check "$t/dir/libcudnn-compat.so" "$t/dir/libcudnn-compat.so, which is a directory"
check libcudnn-compat.so "libcudnn-compat.so, which the loader's search does not find"
check "$SHIM /lib/x86_64-linux-gnu/libm.so.6" \
  "$SHIM /lib/x86_64-linux-gnu/libm.so.6, which is not there (LD_AUDIT splits at colons alone"
check "$t/copy/libsite-cudnn.so" "$t/copy/libsite-cudnn.so, the shim without its engine $t/copy/cudnn-compat-select"
# The shim itself, found by ld.so: on, and the pin met.
expect_rc 0 audit "$t/venv/bin/python" -c "$load" "$lib"
has "cuDNN 92300"
