# doctor with a CUDA need (--cuda, CUDNN_COMPAT_CUDA): with no cuDNN version it judged the loader's
# pick without it ("ok" for a release built for another CUDA), and with one it asked the admins for
# a release that is installed, built for another CUDA (an outside tester's findings).
source "$(dirname "$0")/common.sh"
{
  echo "schema = 1"
  for v in 8.1.0 8.9.7; do
    printf '[[cudnn]]\nversion = "%s"\nlib = "%s"\nmodule = "cudnn/%s"\n' "$v" "$FAKES/$v/lib64" "$v"
  done
} >"$t/map.toml"
export CUDNN_COMPAT_MAP=$t/map.toml LD_LIBRARY_PATH=$FAKES/8.9.7/lib64

expect_rc 1 cc doctor --cuda 11
has "problem: libcudnn.so.8 resolves to $FAKES/8.9.7/lib64/libcudnn.so.8 (LD_LIBRARY_PATH, module): cuDNN 8.9.7 for CUDA 12.2, but CUDA 11 (from --cuda) does not fit it: it is built for CUDA 12.2, not CUDA 11"
has "fix: module load cudnn/8.1.0"

CUDNN_COMPAT_CUDA=12 expect_rc 0 cc doctor
has "ok: libcudnn.so.8 resolves to $FAKES/8.9.7/lib64/libcudnn.so.8 (LD_LIBRARY_PATH, module): cuDNN 8.9.7 for CUDA 12.2, which fits CUDA 12 (from CUDNN_COMPAT_CUDA)"

# With a version too: what to ask for is built for the CUDA asked for (8.9.7 is installed).
expect_rc 1 cc doctor --require 8.9 --cuda 11
has "but cuDNN 8.9 (from --require) for CUDA 11 (from --cuda) does not fit it: it is built for CUDA 12.2, not CUDA 11"
has "fix: ask the admins for cuDNN 8.9 or a newer 8.x built for CUDA 11"
expect_rc 1 cc resolve libcudnn.so.8 --require 8.9 --cuda 11
has "Ask the admins for cuDNN 8.9 or a newer 8.x built for CUDA 11"

# A CUDA need against another loaded CUDA (CUDA_HOME, a cuda module): the finding is that
# mismatch, and the fix loads the CUDA asked for; doctor never advises overriding the user's own
# CUDNN_COMPAT_CUDA, nor a release built for the loaded CUDA (an outside tester's finding).
LOADEDMODULES=cuda/11.8 CUDNN_COMPAT_CUDA=12 expect_rc 1 cc doctor
has "problem: CUDA 12 is needed (from CUDNN_COMPAT_CUDA) but CUDA 11 is loaded (module cuda/11.8)"
has "fix: load a CUDA 12"
lacks "export CUDNN_COMPAT_CUDA=12"
lacks "module load cudnn/8.1.0"
LOADEDMODULES=cuda/11.8 expect_rc 1 cc doctor --cuda 12 --require 8.9
has "CUDA 12 is needed (from --cuda) but CUDA 11 is loaded"
lacks "built for CUDA 12.2 but CUDA 11 is loaded"
