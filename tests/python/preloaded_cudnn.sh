# LD_AUDIT on and a stale LD_PRELOAD naming FAKE cuDNN 9.1.0: ld.so maps it before anything asks,
# torch's link finds it by its SONAME, and the process runs 9.1.0 against torch's 9.23 pin. doctor
# said "ok: torch", resolve named 9.23.0, and the report's next run was an import order, which no
# import can come before (helper 99). Each now names the preload, and removing it is the fix.
source "$(dirname "$0")/common.sh"
torch_above_its_wheel
stale=$FAKES/9.1.0/lib64/libcudnn.so.9
CUDNN_COMPAT_REPORT=1 expect_rc 0 env LD_PRELOAD="$stale" LD_AUDIT="$SHIM" \
  "$t/venv/bin/python" -c "$load" "$lib"
has "cuDNN 90100"
has "next run: remove $stale from LD_PRELOAD   # ld.so loads it before anything asks for cuDNN"
lacks "next run: import"
standin=$(standin_shim)
LD_PRELOAD=$stale LD_AUDIT=$standin expect_rc 1 cc doctor
has "problem: torch"
has "loads libcudnn.so.9 from $FAKES/9.1.0/lib64 ("
has "through LD_PRELOAD, which loaded it before anything asked): cuDNN 9.1.0, which does not fit its pin"
has "fix: remove $stale from LD_PRELOAD"
LD_PRELOAD=$stale LD_AUDIT=$standin expect_rc 0 cc resolve libcudnn.so.9 \
  --for "$t/venv/bin/python"
has "but the process keeps $stale (cuDNN 9.1.0, from LD_PRELOAD)"
has "to get it: remove $stale from LD_PRELOAD   # ld.so loads it before anything asks for cuDNN"
# A preloaded sub-library: the shim keeps its family whole, and torch runs 9.1.0 (helper 100:
# doctor said "ok: torch" and resolve named 9.23.0).
sub=$FAKES/9.1.0/lib64/libcudnn_ops.so.9
expect_rc 0 env LD_PRELOAD="$sub" LD_AUDIT="$SHIM" "$t/venv/bin/python" -c "$load" "$lib"
has "cuDNN 90100"
LD_PRELOAD=$sub LD_AUDIT=$standin expect_rc 1 cc doctor
has "fix: remove $sub from LD_PRELOAD"
lacks "ok: torch"
LD_PRELOAD=$sub LD_AUDIT=$standin expect_rc 0 cc resolve libcudnn.so.9 --for "$t/venv/bin/python"
has "but the process keeps $FAKES/9.1.0/lib64/libcudnn.so.9 (cuDNN 9.1.0, from LD_PRELOAD)"
has "to get it: remove $sub from LD_PRELOAD"
# The fix followed.
expect_rc 0 audit "$t/venv/bin/python" -c "$load" "$lib"
has "cuDNN 92300"
