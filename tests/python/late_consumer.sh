# A framework imported after cuDNN's family was decided (a JAX plugin after torch): its pins were
# not weighed, and its own loads of cuDNN find the loaded family by SONAME without asking. The
# process keeps its one family; CUDNN_COMPAT_REPORT=1 decides once more at exit with every
# library loaded, names the late one and what would fit them all, and the next run's order. The
# same two imported the other way round get the release that fits both (two_consumers.sh).
source "$(dirname "$0")/common.sh"
two_consumers_site
late='import ctypes, sys
rc = ctypes.CDLL(sys.argv[1]).framework_load(b"")
sys.exit(rc or ctypes.CDLL(sys.argv[2]).framework_load(b""))'
for mode in audit preload; do
  CUDNN_COMPAT_REPORT=1 expect_rc 0 $mode python3 -c "$late" "$torch" "$jax"
  has "report: $site/nvidia/cudnn/lib/libcudnn.so.9: cuDNN 9.20.0 (reported by the library), wheel, chosen by the loader, kept by the shim (rule pytorch"
  has "report: $jax came after cuDNN 9.20.0 was chosen for $torch, and its pins were not weighed: with them, cuDNN would come from $FAKES/9.23.0/lib64/libcudnn.so.9"
  has "report: next run: import jax_cuda12_plugin before torch   # its pins are then weighed by the first cuDNN load"
  lacks "nothing to change"
  # Without the report, the process is as it was: one family, no line.
  expect_rc 0 $mode python3 -c "$late" "$torch" "$jax"
  lacks "cudnn-compat:"
done

# cuDNN first loaded by path through ctypes (as torch's own preloading of its wheels does), then
# the plugin: the same check, and the import goes before cuDNN's first load.
first_path='import ctypes, sys
ctypes.CDLL(sys.argv[1])
ctypes.CDLL(sys.argv[2])'
CUDNN_COMPAT_REPORT=1 expect_rc 0 audit python3 -c "$first_path" "$site/nvidia/cudnn/lib/libcudnn.so.9" "$jax"
has "report: $jax came after cuDNN was chosen for "
has "report: next run: import jax_cuda12_plugin before cuDNN is first loaded"

# A seccomp filter that forbids new processes, installed after the loads: the late library could
# not be weighed at exit, and the report says so, not "nothing to change" (nor the load-time
# line about the filter: no load asked).
"$CC" -shared -fPIC -I"$here/.." -o "$t/lockdown.so" -x c - <<'C'
#include "seccomp_filters.h"
int lock_down(void) { return !kill_processes(); }
C
locked='import ctypes, sys
rc = ctypes.CDLL(sys.argv[1]).framework_load(b"") or ctypes.CDLL(sys.argv[2]).framework_load(b"")
sys.exit(rc or ctypes.CDLL(sys.argv[3]).lock_down())'
CUDNN_COMPAT_REPORT=1 expect_rc 0 audit python3 -c "$locked" "$torch" "$jax" "$t/lockdown.so"
has "report: next run: cudnn-compat doctor   # libraries loaded after cuDNN was chosen could not be weighed at exit"
lacks "could not check"

# Forked workers that end with exit() leave the report to the process that loaded cuDNN.
forks='import ctypes, os, sys
rc = ctypes.CDLL(sys.argv[1]).framework_load(b"")
for _ in range(3):
    if os.fork() == 0:
        sys.exit(0)
    os.wait()
sys.exit(rc)'
CUDNN_COMPAT_REPORT=1 expect_rc 0 audit python3 -c "$forks" "$torch"
count "report: next run:" 1

# Without the report, under LD_AUDIT: a late library that links cuDNN (its DT_NEEDED, as jaxlib's
# CUDA plugin's and ONNX Runtime's CUDA provider's do) is seen as it is opened, and one line says
# what its pins would have chosen. Its own link finds the loaded family and asks nothing.
mkdir -p "$site/jax_linked/lib"
"$CC" -shared -fPIC -o "$site/jax_linked/lib/libjax_linked.so" -x c - -L"$FAKES/9.23.0/lib64" \
  -Wl,--no-as-needed -lcudnn -Wl,--enable-new-dtags -Wl,-rpath,'$ORIGIN/../../nvidia/cudnn/lib' \
  <<<'int jax_linked(void) { return 0; }'
python3 "$here/dist_info.py" "$site" jax_linked 0.7.2 --requires "nvidia-cudnn-cu12<10.0,>=9.23" \
  --top jax_linked "jax_linked/lib/libjax_linked.so"
linked=$site/jax_linked/lib/libjax_linked.so
link_late='import ctypes, sys
rc = ctypes.CDLL(sys.argv[1]).framework_load(b"")
ctypes.CDLL(sys.argv[2])
sys.exit(rc)'
expect_rc 0 audit python3 -c "$link_late" "$torch" "$linked"
count "cudnn-compat:" 1
has "cudnn-compat: $linked came after cuDNN 9.20.0 was chosen for $torch, and its pins were not weighed: with them, cuDNN would come from $FAKES/9.23.0/lib64/libcudnn.so.9"
has "; next run: import jax_linked before torch"
# Imported first, its pins are weighed by the first load (the map's 9.23.0 serves both), and
# nothing is said.
expect_rc 0 audit python3 -c "import ctypes, sys; ctypes.CDLL(sys.argv[2]); sys.exit(ctypes.CDLL(sys.argv[1]).framework_load(b''))" "$torch" "$linked"
lacks "cudnn-compat:"
has "version 92300"

# Another library of the first requester's own package that links cuDNN (torch/lib/*) has the
# pins already weighed: the engine is not asked again (one engine start, the first decision's).
if command -v strace >/dev/null; then
  "$CC" -shared -fPIC -o "$site/torch/lib/libtorch_linked.so" -x c - -L"$FAKES/9.23.0/lib64" \
    -Wl,--no-as-needed -lcudnn -Wl,--enable-new-dtags -Wl,-rpath,'$ORIGIN/../../nvidia/cudnn/lib' \
    <<<'int torch_linked(void) { return 0; }'
  rm -rf "${XDG_RUNTIME_DIR:-/nonexistent}/cudnn-compat" "/tmp/cudnn-compat-$(id -u)/memo"
  CUDNN_COMPAT_MAP=$t/none.toml expect_rc 0 audit strace -f -qq -e trace=execve -o "$t/execs" \
    python3 -c "$link_late" "$torch" "$site/torch/lib/libtorch_linked.so"
  lacks "cudnn-compat:"
  [[ $(grep -c 'cudnn-compat-select' "$t/execs") == 1 ]] || fail "expected one engine start:"$'\n'"$(cat "$t/execs")"
fi

# A library loaded later whose distribution pins no cuDNN: decided the same, nothing to say.
framework "$site" imaging 1.0 "numpy>=1.0"
CUDNN_COMPAT_REPORT=1 expect_rc 0 audit python3 -c "$late" "$torch" "$site/imaging/lib/libimaging_cuda.so"
lacks "came after"
has "report: next run: nothing to change"

# No release serves both: the engine's line, and doctor for the next run.
sed -i 's/>=9.23/>=9.24/' "$site"/jax_cuda12_plugin-*.dist-info/METADATA
CUDNN_COMPAT_REPORT=1 expect_rc 0 audit python3 -c "$late" "$torch" "$jax"
has "report: $jax came after cuDNN 9.20.0 was chosen for $torch, and its pins were not weighed: with them, libcudnn.so.9 -> "
has "no installed cuDNN serves both cuDNN 9.20.0 for CUDA 12 under rule pytorch"
has "report: next run: cudnn-compat doctor"
