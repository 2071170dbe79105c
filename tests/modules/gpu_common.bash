# Sourced by the gpu_warning_*.sh scenarios (issue 22, item 4): two FAKE cuDNN 9 releases whose
# libraries carry written device code - cudnn/9.0 (9.0.0, CUDA 12.2): cubins sm_60 and sm_70;
# cudnn/9.1 (9.1.0, CUDA 12.4): cubins sm_75 and sm_80 - in a map of their own, validated (its
# decision table holds the engine's verdicts), and a node of the scenario's own name.
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
: "${GPU_TEST_DIR:?}"
[[ -x $GPU_TEST_DIR/write-fatbin ]] || skip "no write-fatbin at $GPU_TEST_DIR"
unset CUDNN_COMPAT_GPU_ARCH CUDNN_COMPAT_DRIVER_CUDA
export SLURMD_NODENAME=gpuhook-$$-$RANDOM
node_dir=/tmp/cudnn-compat-$(id -u)
trap 'rm -rf "$t" "$node_dir"/node-"$SLURMD_NODENAME"' EXIT
cp -a "$FAKES/9.0.0" "$t/volta"
cp -a "$FAKES/9.1.0" "$t/turing"
"$GPU_TEST_DIR/write-fatbin" "$t/volta.fatbin" cubin:60 cubin:70
"$GPU_TEST_DIR/write-fatbin" "$t/turing.fatbin" cubin:75 cubin:80
objcopy --add-section ".nv_fatbin=$t/volta.fatbin" "$t/volta/lib64/libcudnn_cnn.so.9.0.0"
objcopy --add-section ".nv_fatbin=$t/turing.fatbin" "$t/turing/lib64/libcudnn_cnn.so.9.1.0"
{
  printf 'schema = 1\n[policy]\nrule = "nvidia"\n'
  printf '[[cudnn]]\nversion = "9.0.0"\nlib = "%s"\ncuda = "12.2"\nmodule = "cudnn/9.0"\n' "$t/volta/lib64"
  printf '[[cudnn]]\nversion = "9.1.0"\nlib = "%s"\ncuda = "12.4"\nmodule = "cudnn/9.1"\n' "$t/turing/lib64"
} >"$t/map.toml"
cc map validate "$t/map.toml" >/dev/null
rm -rf "$t/lua" "$t/tcl"

# node_file GPUS DRIVER [BOOT]: this node's facts as the engine remembers them for this boot (or
# for BOOT).
node_file() {
  mkdir -p "$node_dir" && chmod 700 "$node_dir"
  printf 'boot\t%s\ngpus\t%s\ndriver\t%s\nsource\tNVML\nproblem\t\nend\n' \
    "${3:-$(cat /proc/sys/kernel/random/boot_id)}" "$1" "$2" >"$node_dir/node-$SLURMD_NODENAME"
}

# check_gpu_warning: the scenarios both module systems must pass, through module() and $swap.
check_gpu_warning() {
  # A V100 (7.0) by the overrides: cudnn/9.1 carries no code for it, cudnn/9.0 does.
  export CUDNN_COMPAT_GPU_ARCH=7.0 CUDNN_COMPAT_DRIVER_CUDA=12.4
  module load cudnn/9.1 || true; msg
  has "cudnn/9.1 (cuDNN 9.1.0) cannot run on this node, compute capability 7.0 with a CUDA 12.4 driver (CUDNN_COMPAT_GPU_ARCH): its release carries no code for compute capability 7.0; cudnn/9.0 runs here: module $swap cudnn/9.1 cudnn/9.0"
  [[ ${LOADEDMODULES:-} == *cudnn/9.1* ]] || fail "the warning stopped the load"
  module $swap cudnn/9.1 cudnn/9.0; msg
  lacks "cannot run"
  module purge
  unset CUDNN_COMPAT_GPU_ARCH CUDNN_COMPAT_DRIVER_CUDA

  # Nothing known of the node (no overrides, no node file): silence.
  module load cudnn/9.0; msg
  [[ -z $out ]] || fail "expected silence on a node not learnt, got: $out"
  module purge

  # An A100 (8.0) from the node file the engine wrote: cudnn/9.0 has no code for it.
  node_file 8.0 12.4
  module load cudnn/9.0 || true; msg
  has "cudnn/9.0 (cuDNN 9.0.0) cannot run on this node, compute capability 8.0 with a CUDA 12.4 driver (NVML): its release carries no code for compute capability 8.0; cudnn/9.1 runs here: module $swap cudnn/9.0 cudnn/9.1"
  module purge
  module load cudnn/9.1; msg
  lacks "cannot run"
  module purge

  # The same facts remembered in another boot (its boot line): not this node's now, silence.
  node_file 8.0 12.4 another-boot
  module load cudnn/9.0; msg
  lacks "cannot run"
  module purge

  # The same facts with this boot's id, modified an hour from now (a clock that ran ahead): not
  # of this boot by its mtime, as the shim and the engine judge it too; silence.
  node_file 8.0 12.4 && touch -d "@$(($(date +%s) + 3600))" "$node_dir/node-$SLURMD_NODENAME"
  module load cudnn/9.0; msg
  lacks "cannot run"
  module purge

  # The same facts in a file others may write, and a FIFO in the file's place (which held the
  # module command in open() for ever): neither believed, silence, and the load goes on.
  node_file 8.0 12.4 && chmod 0666 "$node_dir/node-$SLURMD_NODENAME"
  module load cudnn/9.0; msg
  lacks "cannot run"
  module purge
  rm -f "$node_dir/node-$SLURMD_NODENAME" && mkfifo "$node_dir/node-$SLURMD_NODENAME"
  # A hung load is let go after 30 s (a writer opens the FIFO), so that the test fails, not hangs.
  (sleep 30 && exec 3<>"$node_dir/node-$SLURMD_NODENAME") >/dev/null 2>&1 &
  unblock=$!
  SECONDS=0
  module load cudnn/9.0; msg
  ((SECONDS < 20)) || fail "the module command waited ${SECONDS} s on a FIFO in the node file's place"
  pkill -P $unblock sleep 2>/dev/null || true
  lacks "cannot run"
  module purge
  rm -f "$node_dir/node-$SLURMD_NODENAME"

  # A driver too old for either build: said, with no module to swap to.
  node_file 8.0 11.8
  module load cudnn/9.1 || true; msg
  has "cudnn/9.1 (cuDNN 9.1.0) cannot run on this node, compute capability 8.0 with a CUDA 11.8 driver (NVML): it needs a driver for CUDA 12.0"
  lacks "runs here"
  module purge

  # A node file that says the facts could not be learnt (NVML failed): silence, no guess.
  printf 'boot\t%s\ngpus\t\ndriver\t\nsource\tNVML\nproblem\tDriver/library version mismatch\nend\n' \
    "$(cat /proc/sys/kernel/random/boot_id)" >"$node_dir/node-$SLURMD_NODENAME"
  module load cudnn/9.1; msg
  lacks "cannot run"
  module purge

  # A GPU the table does not list (a future one) is the engine's to judge: silence here.
  export CUDNN_COMPAT_GPU_ARCH=15.0 CUDNN_COMPAT_DRIVER_CUDA=13.0
  module load cudnn/9.1; msg
  lacks "cannot run"
  module purge
  unset CUDNN_COMPAT_GPU_ARCH CUDNN_COMPAT_DRIVER_CUDA
}
