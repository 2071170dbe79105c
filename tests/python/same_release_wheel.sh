# A wheel of the release a module of the map also holds (9.20.0.48 beside the map's 9.20.0): the
# same release, so the map's place is handed out, by the engine (a Python requester), by the
# decision table and by resolve alike. Ranked by the wheel's build number, the engine and resolve
# handed out the wheel and the table the module (an outside tester's finding: CUDNN_COMPAT_DEBUG=1
# changed the file loaded).
source "$(dirname "$0")/common.sh"
make_venv "$t/venv"
wheel_cudnn "$site" 9.20.0
printf 'schema = 1\n[[cudnn]]\nversion = "9.20.0"\nlib = "%s"\nmodule = "cudnn/9.20"\n' \
  "$FAKES/9.20.0/lib64" >"$t/map.toml"
cc map validate "$t/map.toml" >/dev/null
export VIRTUAL_ENV=$t/venv CUDNN_COMPAT_REQUIRE=9.20  # (not this machine's own 9.19, if any)
expect_rc 0 cc resolve libcudnn.so.9
has "libcudnn.so.9 -> $FAKES/9.20.0/lib64/libcudnn.so.9"
for debug in 0 1; do
  for front in AUDIT PRELOAD; do
    expect_rc 0 env CUDNN_COMPAT_DEBUG=$debug LD_$front="$SHIM" "$t/venv/bin/python" -c '
import ctypes
ctypes.CDLL("libcudnn.so.9")
print(*sorted({l.split()[-1] for l in open("/proc/self/maps") if "libcudnn.so" in l}))'
    has "$FAKES/9.20.0/lib64/libcudnn.so.9"
    lacks "$site/nvidia/cudnn/lib/libcudnn.so.9"
  done
done
