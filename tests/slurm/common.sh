# Sourced by every tests/slurm/*.sh scenario: the shim suite's helpers (compile, fake_map,
# tf2016_client) and a private two-node Slurm (cluster.bash). CTest passes, beside the shim suite's
# variables, SPANK: the spank-cudnn-compat.so under test (empty when it was not built).
# Each scenario runs in a mount namespace of its own (as root, as its cluster needs), where the
# nodes' directory of facts (/tmp/cudnn-compat-UID, node-local on a real cluster) is the scenario's:
# every scenario's nodes are named node1 and node2, and scenarios run side by side (ctest -j, the
# sanitized suite beside the plain one) learnt them with other GPUs under each other (gpu_nodes
# found node1's file naming another scenario's FAKE GPU and was handed the other release).
# Where root may not make one (a container without CAP_SYS_ADMIN), the scenario forgets the
# nodes' facts at its start instead (scenarios run side by side may still meet).
if [[ $(id -u) == 0 && -z ${SLURM_SCENARIO_NAMESPACE:-} ]] &&
  unshare --mount --propagation private true 2>/dev/null; then
  export SLURM_SCENARIO_NAMESPACE=1
  exec unshare --mount --propagation private -- "$BASH" "$0" "$@"
fi
source "$(dirname "${BASH_SOURCE[0]}")/../shim/common.sh"
# slurmd names each task's node; the shim suite's node of its own is none of the cluster's.
rm -f "$node_of_scenario" && unset SLURMD_NODENAME
if [[ -n ${SLURM_SCENARIO_NAMESPACE:-} ]]; then
  mkdir -p -m 700 "$t/nodes" "/tmp/cudnn-compat-$(id -u)"
  mount --bind "$t/nodes" "/tmp/cudnn-compat-$(id -u)" || fail "cannot give the scenario its nodes' directory"
else
  rm -f "/tmp/cudnn-compat-$(id -u)"/node-node[12]
fi
source "$(dirname "${BASH_SOURCE[0]}")/cluster.bash"
[[ -n ${SPANK:-} ]] || skip "the SPANK plugin was not built: slurm/spank.h not found (bash scripts/deps.sh)"
: "${CUDNN_COMPAT:?}"

# slurm_up [PLUGIN ARGUMENTS...]: the cluster, with the plugin in plugstack.conf; stopped at exit.
# Skips the test, with the reason, where Slurm cannot run.
slurm_up() {
  local reason
  reason=$(slurm_cluster_reason)
  [[ -z $reason ]] || skip "$reason"
  trap 'slurm_cluster_stop "$t/slurm"; rm -rf "$t"' EXIT
  if ! slurm_cluster_start "$t/slurm" "optional $SPANK $*" 2>"$t/start.err"; then
    skip "Slurm did not start here: $(tail -n 3 "$t/start.err" "$t"/slurm/*.log 2>/dev/null | tr '\n' ' ')"
  fi
}

# node_maps NODE1 NODE2: $t/maps/node1.toml and node2.toml, each listing the FAKE releases named
# (space-separated) for that node, for the plugin argument map=$t/maps/%n.toml.
node_maps() {
  mkdir -p "$t/maps"
  fake_map $1 >"$t/maps/node1.toml"
  fake_map $2 >"$t/maps/node2.toml"
}

# short_cells: the table of doctor --nodes in $out keeps every cell of its last column (the
# verdict) within 60 characters; the whole verdict is printed after the table.
short_cells() {
  local at line cell
  at=$(grep '^node ' <<<"$out" | head -1 | grep -bo 'verdict$' | cut -d: -f1 || true)
  [[ -n $at ]] || fail "no verdict column:"$'\n'"$out"
  while IFS= read -r line; do
    [[ $line == node[12]\ * ]] || continue
    cell=${line:$at}
    (( ${#cell} <= 60 )) || fail "a verdict cell of ${#cell} characters: $cell"
  done <<<"$out"
}
