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

# Where no installed release runs on the node (compute capability 5.0), doctor does not offer the
# shim, which keeps the loader's choice there; its fix asks for a release that runs on the node
# (outside test 1203c, C1). Where the shim would hand one over, doctor says what it would load
# and the CUDA it was built for against the loaded CUDA, as with a requirement (C2).
expect_rc 1 env CUDNN_COMPAT_GPU_ARCH=5.0 CUDNN_COMPAT_DRIVER_CUDA=12.4 "$CUDNN_COMPAT" doctor
has "fix: ask the admins for a cuDNN 9 release that runs on compute capability 5.0"
lacks "shim-path"
expect_rc 1 env CUDNN_COMPAT_GPU_ARCH=5.0 CUDNN_COMPAT_DRIVER_CUDA=12.4 "$CUDNN_COMPAT" doctor --require 9
has "that runs on compute capability 5.0"
lacks "shim-path"
mkdir -p "$t/cuda13" && echo '{"cuda": {"version": "13.0.48"}}' >"$t/cuda13/version.json"
expect_rc 1 env CUDA_HOME="$t/cuda13" "$CUDNN_COMPAT" doctor
has "the shim is off; it would load $t/volta/lib64/libcudnn.so.9, built for CUDA 12.2, but CUDA 13 is loaded"

# Report-only (per job, or the map's [usage] mode) keeps the loader's choice: doctor says so where
# it said the shim would load volta and that all was well (outside test 1203c, C3).
for word in report-only report_only; do
  expect_rc 1 env CUDNN_COMPAT_USAGE=$word LD_AUDIT="$SHIM" "$CUDNN_COMPAT" doctor
  has "; the shim, in report-only mode (CUDNN_COMPAT_USAGE=$word), keeps it; it would load $t/volta/lib64/libcudnn.so.9"
  has "the shim is on (LD_AUDIT) in report-only mode (CUDNN_COMPAT_USAGE=$word): every load stays the loader's choice; it would hand over $t/volta/lib64/libcudnn.so.9"
done
cp "$t/map.toml" "$t/ro.toml"
printf '[usage]\nmode = "report-only"\nto = "%s"\n' "$t" >>"$t/ro.toml"
expect_rc 1 env CUDNN_COMPAT_MAP="$t/ro.toml" LD_AUDIT="$SHIM" "$CUDNN_COMPAT" doctor
has "in report-only mode (the map's [usage] mode), keeps it"

# What the shim would load is judged for the CUDA asked for (CUDNN_COMPAT_CUDA), as the shim does:
# with CUDA 13 asked and loaded and no release built for it, the shim hands nothing over, and
# doctor neither names volta nor repeats the variable's fix (outside test 1203d, D1).
expect_rc 1 env CUDA_HOME="$t/cuda13" CUDNN_COMPAT_CUDA=13 "$CUDNN_COMPAT" doctor
lacks "the shim would load"
lacks "export CUDNN_COMPAT_CUDA=13"
expect_rc 1 env CUDA_HOME="$t/cuda13" "$CUDNN_COMPAT" doctor
has "fix: ask the admins for a cuDNN built for CUDA 13"
lacks "export CUDNN_COMPAT_CUDA=13"
# The shim on but passing every load on (CUDNN_COMPAT_DISABLE=1), and report-only with the shim
# off: neither hands volta over, and doctor says so (D5).
expect_rc 1 env CUDNN_COMPAT_DISABLE=1 LD_AUDIT="$SHIM" "$CUDNN_COMPAT" doctor
has "the shim is on (LD_AUDIT) but passes every load on (CUDNN_COMPAT_DISABLE=1)"
has "fix: unset CUDNN_COMPAT_DISABLE"
expect_rc 1 env CUDNN_COMPAT_USAGE=report-only "$CUDNN_COMPAT" doctor
lacks "shim-path"
