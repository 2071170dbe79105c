# scan --search finds the real cuDNN under /usr/local/cuda, with its true version.
source "$(dirname "$0")/common.sh"
[[ -e /usr/local/cuda/lib64/libcudnn.so.9 ]] || skip "no real cuDNN under /usr/local/cuda"
expect_rc 0 "$CUDNN_COMPAT" scan --modules none --search /usr/local/cuda
has "version = \"$(cc --json probe /usr/local/cuda/lib64 | sed -n 's/.*"version": "\([^"]*\)".*/\1/p')\""
