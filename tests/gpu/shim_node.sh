# The shim hands each node the release its GPUs run: the overrides, a FAKE NVML (learnt once per
# boot, then remembered by the fast path without a process), a FAKE nvidia-smi where there is no
# NVML; the same answer with the decision table as without it.
source "$(dirname "$0")/common.sh"
two_releases
client
export LD_LIBRARY_PATH=$t/turing/lib64  # the loader's own choice: the newer release

run() { expect_rc 0 env LD_AUDIT="$SHIM" "$t/client"; }
for table in with without; do
  if [[ $table == with ]]; then
    expect_rc 0 "$CUDNN_COMPAT" map validate "$t/map.toml"
  else
    rm -f "$t/map.toml.decide"
  fi
  CUDNN_COMPAT_GPU_ARCH=7.0 CUDNN_COMPAT_DRIVER_CUDA=12.2 run
  has "loaded $t/volta/lib64/libcudnn.so.9"
  CUDNN_COMPAT_GPU_ARCH=8.0 CUDNN_COMPAT_DRIVER_CUDA=12.2 run
  has "loaded $t/turing/lib64/libcudnn.so.9"
done
expect_rc 0 "$CUDNN_COMPAT" map validate "$t/map.toml"

# An override of one item per GPU on a node of 17 (`nvidia-smi ... | paste -sd,`) is decided on the
# table's fast path, as 16 are: the shim keeps each architecture once (it held 16 items and left
# every load of a 17-GPU override to the engine).
command -v strace >/dev/null || skip "strace is not installed (scripts/deps.sh installs it)"
for n in 16 17; do
  gpus=$(printf '7.0,%.0s' $(seq 2 "$n"))7.0
  expect_rc 0 env CUDNN_COMPAT_GPU_ARCH="$gpus" CUDNN_COMPAT_DRIVER_CUDA=12.2 \
    strace -f -qq -e trace=execve -o "$t/trace" env LD_AUDIT="$SHIM" "$t/client"
  has "loaded $t/volta/lib64/libcudnn.so.9"
  [[ $(grep -c 'execve(' "$t/trace") == 2 ]] || fail "$n GPUs started processes:"$'\n'"$(cat "$t/trace")"
done

# A FAKE NVML on a V100 node: asked once, then the node file of this boot answers.
fake_nvml
export FAKE_NVML_GPUS=7.0 FAKE_NVML_DRIVER=12020 FAKE_NVML_LOG=$t/nvml.log
run
has "loaded $t/volta/lib64/libcudnn.so.9"
command -v strace >/dev/null || skip "strace is not installed (scripts/deps.sh installs it)"
expect_rc 0 strace -f -qq -e trace=execve -o "$t/trace" env LD_AUDIT="$SHIM" "$t/client"
has "loaded $t/volta/lib64/libcudnn.so.9"
[[ $(grep -c 'execve(' "$t/trace") == 2 ]] || fail "the remembered node started processes:"$'\n'"$(cat "$t/trace")"
[[ $(wc -l <"$t/nvml.log") == 1 ]] || fail "NVML was asked more than once:"$'\n'"$(cat "$t/nvml.log")"
# The node file cut short (its "end" line lost): the engine and both hooks take it for no answer,
# and so does the fast path, which leaves the load to the engine; the engine asks NVML again.
node_file=/tmp/cudnn-compat-$(id -u)/node-$SLURMD_NODENAME
[[ -f $node_file ]] || fail "no node file for $SLURMD_NODENAME"
sed -i '$d' "$node_file"
expect_rc 0 strace -f -qq -e trace=execve -o "$t/trace" env LD_AUDIT="$SHIM" "$t/client"
has "loaded $t/volta/lib64/libcudnn.so.9"
(($(grep -c 'execve(' "$t/trace") > 2)) || fail "a node file cut short was believed:"$'\n'"$(cat "$t/trace")"
[[ $(wc -l <"$t/nvml.log") == 2 ]] || fail "NVML was not asked again:"$'\n'"$(cat "$t/nvml.log")"

# No NVML: a FAKE nvidia-smi on another node says 8.0 and driver 535 (CUDA 12.2).
export SLURMD_NODENAME=$SLURMD_NODENAME-smi LD_LIBRARY_PATH=$t/turing/lib64
ln -s "$FAKE_SMI" "$t/bin/nvidia-smi"
FAKE_SMI_GPUS=7.0 FAKE_SMI_DRIVER=535.104.05 run
has "loaded $t/volta/lib64/libcudnn.so.9"
rm -f /tmp/cudnn-compat-"$(id -u)"/node-"$SLURMD_NODENAME"
