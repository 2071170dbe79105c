# Issue 25 items 1, 4 and 5: a node whose plugstack.conf lacks the plugin (--cudnn silently does
# nothing there) and a node whose plugin has no shim beside it are found by doctor --nodes; the
# table's cells stay short however long a verdict is (the whole verdict follows the table).
source "$(dirname "$0")/common.sh"
node_maps "5.0.5 5.1.10" "5.0.5 5.1.10"
export SLURMD_PLUGSTACK_node2=""  # node2: no plugin at all
slurm_up "map=$t/maps/%n.toml"

expect_rc 1 salloc -N2 "$CUDNN_COMPAT" doctor --nodes --require 5.1
grep -E "^node1 +yes .* ok$" <<<"$out" >/dev/null || fail "node1 not ok:"$'\n'"$out"
grep -E "^node2 +no " <<<"$out" >/dev/null || fail "node2's missing plugin not shown:"$'\n'"$out"
has "node2: no SPANK plugin here (plugstack.conf): srun --cudnn does nothing on this node; "
short_cells
