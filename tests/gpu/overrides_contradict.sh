# Overrides that contradict each other (compute capability 12.0 needs a CUDA 12.8 driver; 12.4 is
# named) are no facts of any node: the engine says so in one line and keeps the loader's choice.
# The shim's fast path found turing (PTX 9.0, CUDA 12.4) fit for 12.0/12.4 in its table and handed
# it over silently, so the load depended on CUDNN_COMPAT_DEBUG (outside test 1203b, B1).
source "$(dirname "$0")/common.sh"
node_scenario
export LD_LIBRARY_PATH=$t/volta/lib64
export CUDNN_COMPAT_GPU_ARCH=12.0 CUDNN_COMPAT_DRIVER_CUDA=12.4
for front in LD_AUDIT LD_PRELOAD; do
  for debug in 0 1; do
    expect_rc 0 env "$front=$SHIM" CUDNN_COMPAT_DEBUG=$debug "$t/client"
    has "loaded $t/volta/lib64/libcudnn.so.9"
    has "this node's GPUs and driver are not known (CUDNN_COMPAT_GPU_ARCH=12.0 and CUDNN_COMPAT_DRIVER_CUDA=12.4 contradict each other"
    count "cudnn-compat:" 1
  done
done
# The same GPU with a driver that knows it is judged on the table's fast path: turing's PTX runs.
export CUDNN_COMPAT_DRIVER_CUDA=12.8
expect_rc 0 env LD_AUDIT="$SHIM" "$t/client"
has "loaded $t/turing/lib64/libcudnn.so.9"
count "cudnn-compat:" 0
# resolve answers as the shim does for both.
expect_rc 0 "$CUDNN_COMPAT" resolve libcudnn.so.9
has "libcudnn.so.9 -> $t/turing/lib64/libcudnn.so.9"
CUDNN_COMPAT_DRIVER_CUDA=12.4 expect_rc 0 "$CUDNN_COMPAT" resolve libcudnn.so.9
has "contradict each other"
# One override and the other fact learnt (NVML: an 8.0 GPU, a CUDA 12.4 driver) are checked as a
# pair too (they were believed: turing handed over for 12.0 with NVML's 12.4; outside test 1203c,
# C4), and so is the map's [[node]] entry that gives the GPUs alone.
unset CUDNN_COMPAT_DRIVER_CUDA
export LD_LIBRARY_PATH=$NVML_DIR:$t/volta/lib64 FAKE_NVML_GPUS=8.0 FAKE_NVML_DRIVER=12040
for front in LD_AUDIT LD_PRELOAD; do
  expect_rc 0 env "$front=$SHIM" "$t/client"
  has "loaded $t/volta/lib64/libcudnn.so.9"
  has "CUDNN_COMPAT_GPU_ARCH (compute capability 12.0) and the driver NVML names (CUDA 12.4) contradict each other"
  count "cudnn-compat:" 1
done
unset CUDNN_COMPAT_GPU_ARCH
export CUDNN_COMPAT_DRIVER_CUDA=11.7 FAKE_NVML_GPUS=9.0
rm -f "$node_file"  # the node learnt anew (its file of this boot said 8.0)
expect_rc 0 env LD_AUDIT="$SHIM" "$t/client"
has "loaded $t/volta/lib64/libcudnn.so.9"
has "the GPUs NVML names (compute capability 9.0) and CUDNN_COMPAT_DRIVER_CUDA (CUDA 11.7) contradict each other"
unset CUDNN_COMPAT_DRIVER_CUDA
printf '[[node]]\nname = "%s"\ngpu_arch = "12.0"\n' "$SLURMD_NODENAME" >>"$t/map.toml"
expect_rc 0 "$CUDNN_COMPAT" map validate "$t/map.toml"
FAKE_NVML_GPUS=8.0 expect_rc 0 env LD_AUDIT="$SHIM" "$t/client"
has "loaded $t/volta/lib64/libcudnn.so.9"
has "contradict each other"
# One override and the map's [[node]] entry for this node: the entry gives the other fact before
# NVML does (it was dropped once an override was set; outside test 1203d, D2). The entry says 12.0
# and the driver override 12.4: a contradiction, whatever NVML says.
rm -f "$node_file"
CUDNN_COMPAT_DRIVER_CUDA=12.4 FAKE_NVML_GPUS=8.0 expect_rc 0 env LD_AUDIT="$SHIM" "$t/client"
has "loaded $t/volta/lib64/libcudnn.so.9"
has "CUDNN_COMPAT_DRIVER_CUDA (CUDA 12.4) contradict each other"
sed -i 's/^gpu_arch = "12.0"$/gpu_arch = "8.0"/' "$t/map.toml"
expect_rc 0 "$CUDNN_COMPAT" map validate "$t/map.toml"
rm -f "$node_file"  # NVML now says 7.0, which volta runs on: the entry's 8.0 must count
CUDNN_COMPAT_DRIVER_CUDA=12.4 FAKE_NVML_GPUS=7.0 expect_rc 0 env LD_AUDIT="$SHIM" "$t/client"
has "loaded $t/turing/lib64/libcudnn.so.9"
count "cudnn-compat:" 0
