# doctor judges the loader's choice as resolve and the shim do, on this node's GPUs and driver: on
# a V100 node (a FAKE NVML: 7.0, CUDA 12.2) the loader's turing carries no code for 7.0, so doctor
# names why, what the shim would load instead, and the module that fits.
source "$(dirname "$0")/common.sh"
node_scenario
sed -i "s|^lib = \"$t/volta/lib64\"|&\nmodule = \"cudnn/9.0\"|; s|^lib = \"$t/turing/lib64\"|&\nmodule = \"cudnn/9.1\"|" "$t/map.toml"
expect_rc 0 "$CUDNN_COMPAT" map validate "$t/map.toml"
export FAKE_NVML_GPUS=7.0 FAKE_NVML_DRIVER=12020

expect_rc 0 "$CUDNN_COMPAT" resolve libcudnn.so.9 --require 9
has "libcudnn.so.9 -> $t/volta/lib64/libcudnn.so.9"
expect_rc 1 "$CUDNN_COMPAT" doctor --require 9
has "problem: libcudnn.so.9 resolves to $t/turing/lib64/libcudnn.so.9"
has "but cuDNN 9 (from --require) on compute capability 7.0 with a CUDA 12.2 driver (NVML) does not fit it: its libcudnn_cnn.so.9 carries no code for compute capability 7.0"
has "fix: module load cudnn/9.0"
has "it would load $t/volta/lib64/libcudnn.so.9"
lacks "the loader's own choice fits"
expect_rc 1 "$CUDNN_COMPAT" --json doctor --require 9
has '"gpus": "7.0"'

# The overrides are this node's facts for doctor too: an A100 runs the loader's turing.
expect_rc 0 env CUDNN_COMPAT_GPU_ARCH=8.0 CUDNN_COMPAT_DRIVER_CUDA=12.2 "$CUDNN_COMPAT" doctor --require 9
has "which fits cuDNN 9 (from --require) on compute capability 8.0 with a CUDA 12.2 driver"
has "the loader's own choice fits"

# Without a requirement doctor judges the node all the same, as the shim does: the shim, asked for
# libcudnn.so.9 with no requirement, loads volta; doctor names turing's misfit and volta.
unset CUDNN_COMPAT_REQUIRE
expect_rc 1 "$CUDNN_COMPAT" doctor
has "problem: libcudnn.so.9 resolves to $t/turing/lib64/libcudnn.so.9"
has "which cannot run on compute capability 7.0 with a CUDA 12.2 driver (NVML): its libcudnn_cnn.so.9 carries no code for compute capability 7.0"
has "; the shim would load $t/volta/lib64/libcudnn.so.9"
has "fix: module load cudnn/9.0"
expect_rc 1 "$CUDNN_COMPAT" --json doctor
has '"gpus": "7.0"'
expect_rc 0 env CUDNN_COMPAT_GPU_ARCH=8.0 CUDNN_COMPAT_DRIVER_CUDA=12.2 "$CUDNN_COMPAT" doctor
has "ok: libcudnn.so.9 resolves to $t/turing/lib64/libcudnn.so.9"
has "which runs on compute capability 8.0 with a CUDA 12.2 driver (CUDNN_COMPAT_GPU_ARCH)"
