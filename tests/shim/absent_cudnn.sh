# A process that asks for a cuDNN the machine does not have (a framework trying majors; a CPU-only
# node), with no map: the load fails as it would without the shim, silently, and nothing is probed
# - no NVML probe to learn the node's GPUs, since there is no candidate to judge (an outside
# tester's finding: the engine learnt the node first, every time where /tmp keeps no node file).
source "$(dirname "$0")/common.sh"
command -v strace >/dev/null || skip "strace is not installed (scripts/deps.sh installs it)"
family_client
mkdir -p "$t/empty"
export LD_LIBRARY_PATH=$t/empty
for mode in audit preload; do
  rm -f "$node_of_scenario"  # a node no process has learnt
  started $mode "$t/family" libcudnn.so.7
  [[ $(env LD_LIBRARY_PATH="$t/empty" "$t/family" libcudnn.so.7 2>&1) == "$out" ]] ||
    fail "$mode: not the load without the shim: $out"
  lacks "cudnn-compat:"
  ! grep -q 'cudnn-compat-probe' <<<"$trace" || fail "$mode: a probe was started:"$'\n'"$trace"
done
