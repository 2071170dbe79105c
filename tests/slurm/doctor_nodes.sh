# cudnn-compat doctor --nodes inside an allocation asks both nodes (through srun) and prints one
# table: with equal maps both fit 5.1 and it exits 0; once node2's map lacks 5.1 the table says
# node2 misfits, and it exits 1 (its map is its own by design, map=.../%n.toml: no drift to
# report). Outside an allocation it is bad usage.
source "$(dirname "$0")/common.sh"
node_maps "5.0.5 5.1.10" "5.0.5 5.1.10"
slurm_up shim=on "map=$t/maps/%n.toml"

expect_rc 2 "$CUDNN_COMPAT" doctor --nodes --require 5.1
has "doctor --nodes runs inside a Slurm allocation"

expect_rc 0 salloc -N2 "$CUDNN_COMPAT" doctor --nodes --require 5.1
count "$FAKES/5.1.10/lib64/libcudnn.so.5  yes" 2
count " ok" 2

fake_map 5.0.5 7.6.5 >"$t/maps/node2.toml"
expect_rc 1 salloc -N2 "$CUDNN_COMPAT" doctor --nodes --require 5.1
has "node1"
grep -E "^node2 .* no +misfit: " <<<"$out" >/dev/null ||
  fail "node2 not reported as misfit:"$'\n'"$out"
lacks "differs"
lacks "node1 cannot"

expect_rc 1 salloc -N2 "$CUDNN_COMPAT" --json doctor --nodes --require 5.1
has '"ok": false'
