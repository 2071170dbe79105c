# doctor on the real cuDNN 9 under /usr/local/cuda: what libcudnn.so.9 resolves to, probed.
source "$(dirname "$0")/common.sh"
real=/usr/local/cuda/lib64
[[ -e $real/libcudnn.so.9 ]] || skip "no real cuDNN 9 at $real"
fake_map >"$t/map.toml"
export CUDNN_COMPAT_MAP=$t/map.toml
LD_LIBRARY_PATH=$real expect_rc 0 cc doctor --require 9.1
has "libcudnn.so.9 resolves to $real/libcudnn.so.9 (LD_LIBRARY_PATH, system): cuDNN 9."
