# A framework whose library links cuDNN (DT_NEEDED, as libtorch_cuda.so does) against its pin:
# under LD_PRELOAD the shim never sees that link, and doctor said "ok: the shim is on
# (LD_PRELOAD)" beside the pin it does not meet (helper 94). It now advises the front end that
# sees links, and the process proves why: LD_PRELOAD keeps the wheel's, LD_AUDIT hands over 9.23.0.
# resolve --for the venv's python named 9.23.0 under LD_PRELOAD, silently (helper 95): it now says
# the process keeps the wheel's, and how to get the answer.
source "$(dirname "$0")/common.sh"
standin=$(standin_shim)
torch_above_its_wheel

# (doctor judges what ld.so would load: a stand-in keeps the shim out of its own process.)
LD_PRELOAD=$standin expect_rc 1 cc doctor
has "cuDNN 9.20.0, which does not fit its pin"
has "fix: export LD_AUDIT=\$(cudnn-compat shim-path); unset LD_PRELOAD   # under LD_PRELOAD the shim does not see $lib's link of libcudnn.so.9"
CUDNN_COMPAT_REPORT=1 expect_rc 0 preload "$t/venv/bin/python" -c "$load" "$lib"
has "cuDNN 92000"
# The report at exit says the same, its paths without the RUNPATH's ../
has "report: $site/nvidia/cudnn/lib/libcudnn.so.9 was linked by $lib, which the shim does not see under LD_PRELOAD"
lacks "/../"
expect_rc 0 audit "$t/venv/bin/python" -c "$load" "$lib"
has "cuDNN 92300"
LD_PRELOAD=$standin expect_rc 0 cc resolve libcudnn.so.9 --for "$t/venv/bin/python"
has "libcudnn.so.9 -> $FAKES/9.23.0/lib64/libcudnn.so.9"
has "but the process keeps $site/nvidia/cudnn/lib/libcudnn.so.9 (cuDNN 9.20.0, from RUNPATH of $lib), as the loader alone would"
has "to get it: export LD_AUDIT=\$(cudnn-compat shim-path); unset LD_PRELOAD   # under LD_PRELOAD the shim does not see $lib's link of libcudnn.so.9"
LD_PRELOAD=$standin expect_rc 0 cc resolve libcudnn_ops.so.9 --for "$t/venv/bin/python" --json
has '"loaded_instead": {'
has "\"file\": \"$site/nvidia/cudnn/lib/libcudnn_ops.so.9\""
# LD_PRELOAD that lists a cuDNN itself: that one is kept, whatever torch's RUNPATH says (helper
# 97).
LD_PRELOAD="$standin:$FAKES/9.1.0/lib64/libcudnn.so.9" expect_rc 0 cc resolve libcudnn.so.9 --for "$t/venv/bin/python"
has "but the process keeps $FAKES/9.1.0/lib64/libcudnn.so.9 (cuDNN 9.1.0, from LD_PRELOAD)"
expect_rc 0 env LD_PRELOAD="$SHIM:$FAKES/9.1.0/lib64/libcudnn.so.9" \
  "$t/venv/bin/python" -c "$load" "$lib"
has "cuDNN 90100"
LD_AUDIT=$standin expect_rc 0 cc resolve libcudnn.so.9 --for "$t/venv/bin/python"
lacks "the process keeps"
# With the shim off, or on and disabled, the process keeps the wheel's too (helper 97: "gets this
# file" was said of it).
for off in "env" "env LD_AUDIT=$standin CUDNN_COMPAT_DISABLE=1"; do
  expect_rc 0 $off "$CUDNN_COMPAT" resolve libcudnn.so.9 --for "$t/venv/bin/python"
  has "but without the shim the process keeps $site/nvidia/cudnn/lib/libcudnn.so.9 (cuDNN 9.20.0"
done
has "to get it: unset CUDNN_COMPAT_DISABLE"
expect_rc 0 cc resolve libcudnn.so.9 --for "$t/venv/bin/python"
has "to get it: export LD_AUDIT=\$(cudnn-compat shim-path)"
# The advice followed: under LD_AUDIT the shim sees the link and hands over 9.23.0 (the process
# above); doctor said "problem" all the same (helper 97).
LD_AUDIT=$standin expect_rc 0 cc doctor
has "cuDNN 9.20.0, which does not fit its pin"
has "the shim, which is on (LD_AUDIT), hands over $FAKES/9.23.0/lib64/libcudnn.so.9 instead"
lacks "problem:"
# The shim off: the same pin, and LD_AUDIT is the advice as before.
expect_rc 1 cc doctor
has "fix: export LD_AUDIT=\$(cudnn-compat shim-path)"
lacks "unset LD_PRELOAD"
