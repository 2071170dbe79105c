# An asked need comes before a framework's pin (docs/python.md, "Precedence"): with torch pinned
# to 9.23 over its wheel's FAKE 9.20.0 and CUDNN_COMPAT_REQUIRE=9.20 set (an application module
# sets it so), the shim keeps the wheel's 9.20.0. doctor said "ok: ... the shim hands over 9.23.0
# instead", the pin's choice (helper 105); it now says the shim follows CUDNN_COMPAT_REQUIRE and
# keeps a release the pin refuses, with the fix, and says ok where the asked release fits the pin.
source "$(dirname "$0")/common.sh"
torch_above_its_wheel
export CUDNN_COMPAT_REQUIRE=9.20
expect_rc 0 audit "$t/venv/bin/python" -c "$load" "$lib"
has "cuDNN 92000"
standin=$(standin_shim)
LD_AUDIT=$standin expect_rc 1 cc doctor
has "problem: torch"
has "the shim, which is on (LD_AUDIT), follows CUDNN_COMPAT_REQUIRE (cuDNN 9.20), which comes before any pin, and keeps it, which does not fit its pin"
has "fix: unset CUDNN_COMPAT_REQUIRE   # the shim then follows the pin"
lacks "hands over $FAKES/9.23.0"
# With the shim off, turning it on is no fix: it would follow CUDNN_COMPAT_REQUIRE too (helper
# 106: "export LD_AUDIT=... picks a release that fits the pin", followed, kept 9.1.0).
expect_rc 1 cc doctor
has "problem: torch"
lacks "picks a release that fits the pin"
has "fix: unset CUDNN_COMPAT_REQUIRE   # the shim then follows the pin"
# The fix followed.
unset CUDNN_COMPAT_REQUIRE
expect_rc 0 audit "$t/venv/bin/python" -c "$load" "$lib"
has "cuDNN 92300"
LD_AUDIT=$standin expect_rc 0 cc doctor
has "hands over $FAKES/9.23.0/lib64/libcudnn.so.9 instead"
# An asked release the pin accepts: the shim hands it over, and doctor says so (and, as ever, that
# the system's 9.19.0, what the bare name finds, does not fit 9.23).
export CUDNN_COMPAT_REQUIRE=9.23
LD_AUDIT=$standin expect_rc 1 cc doctor
has "ok: torch"
has "follows CUDNN_COMPAT_REQUIRE (cuDNN 9.23), which comes before any pin, and hands over $FAKES/9.23.0/lib64/libcudnn.so.9 (cuDNN 9.23.0), which fits its pin"
