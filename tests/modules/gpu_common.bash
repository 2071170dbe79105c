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

# silent_load CASE: `module load cudnn/9.0` says nothing within 5 s (the node file, which says
# 8.0, is not believed), and the load goes on.
silent_load() {
  SECONDS=0
  module load cudnn/9.0; msg
  ((SECONDS < 5)) || fail "$1: the module command took ${SECONDS} s"
  [[ -z $out ]] || fail "$1: expected silence, got: $out"
  [[ ${LOADEDMODULES:-} == *cudnn/9.0* ]] || fail "$1: not loaded"
  module purge
}

# check_node_file_grammar: node files off the grammar every reader applies (docs/contract.md,
# "The node file"), each saying 8.0 in a form the engine and the shim do not believe either.
check_node_file_grammar() {
  local file=$node_dir/node-$SLURMD_NODENAME boot
  boot=$(cat /proc/sys/kernel/random/boot_id)
  # 2 GB (truncate -s): judged by its size, never read (both hooks read it whole, 12 s or more
  # and GBs; Tcl failed with "max size for a Tcl value exceeded").
  node_file 8.0 12.4 && truncate -s 2G "$file"
  silent_load "a file of 2 GB"
  # CRLF line ends (the Tcl hook believed it), a second gpus line (both took the last), a NUL in a
  # value, a line after the end line.
  printf 'boot\t%s\r\ngpus\t8.0\r\ndriver\t12.4\r\nsource\tNVML\r\nproblem\t\r\nend\r\n' "$boot" >"$file"
  silent_load "CRLF"
  printf 'boot\t%s\ngpus\t7.0\ngpus\t8.0\ndriver\t12.4\nsource\tNVML\nproblem\t\nend\n' "$boot" >"$file"
  silent_load "two gpus lines"
  printf 'boot\t%s\ngpus\t8.0\ndriver\t12.4\nsource\tNVML\0x\nproblem\t\nend\n' "$boot" >"$file"
  silent_load "a NUL"
  node_file 8.0 12.4 && echo more >>"$file"
  silent_load "a line after the end line"
  # Values off the one X.Y grammar: empty items in the list (Lua skipped them), three digits.
  node_file 8.0, 12.4
  silent_load "a trailing comma"
  node_file 8.0,,8.0 12.4
  silent_load "an empty item"
  node_file 008.0 12.4
  silent_load "three digits"
  rm -f "$file"
}

# check_node_name: a $SLURMD_NODENAME that cannot be a file's name (a newline: the engine cut it
# there and read node "od"'s file for "od\nx"; a '/') is passed over for the host name, as by the
# shim and the engine: the host's node file, which says 8.0, is read.
check_node_name() {
  local host bad
  host=$(uname -n)
  SLURMD_NODENAME=$host node_file 8.0 12.4
  for bad in "$SLURMD_NODENAME"$'\nx' "a/b"; do
    SLURMD_NODENAME=$bad module load cudnn/9.0 || true; msg
    has "cudnn/9.0 (cuDNN 9.0.0) cannot run on this node, compute capability 8.0 with a CUDA 12.4 driver (NVML)"
    module purge
  done
  rm -f "$node_dir/node-$host"
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
  # One override alone, the rest to learn: the engine's to say, not a hook's (the Tcl hook judged
  # the GPUs alone where Lmod's said nothing).
  CUDNN_COMPAT_GPU_ARCH=7.0 module load cudnn/9.1 || true; msg
  lacks "cannot run"
  module purge

  # Overrides that contradict each other (compute capability 9.0 needs a CUDA 11.8 driver): the
  # engine calls the node unknown and keeps the loader's choice, so neither hook judges by them;
  # the same GPU with a driver that knows it is judged.
  CUDNN_COMPAT_GPU_ARCH=9.0 CUDNN_COMPAT_DRIVER_CUDA=12.4 module load cudnn/9.1 || true; msg
  has "cudnn/9.1 (cuDNN 9.1.0) cannot run on this node, compute capability 9.0 with a CUDA 12.4 driver"
  module purge
  CUDNN_COMPAT_GPU_ARCH=9.0 CUDNN_COMPAT_DRIVER_CUDA=11.0 module load cudnn/9.1 || true; msg
  lacks "cannot run"
  module purge

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
  check_node_file_grammar
  check_node_name

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
