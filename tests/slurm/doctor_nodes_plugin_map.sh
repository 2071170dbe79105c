# Issue 25 item 1: doctor --nodes checks what jobs get on each node. With per-node maps set the
# README's way (map=.../%n.toml) and shim=off, srun --cudnn=5.1 finds that node2 cannot serve 5.1;
# doctor --nodes (no --cudnn given to salloc) must say the same, from node2's own map, and name
# the map each node's jobs get. Nodes given maps of their own are judged by their answers, not
# for having another map than the others.
source "$(dirname "$0")/common.sh"
node_maps "5.0.5 5.1.10" "5.0.5 7.6.5"
slurm_up shim=off "map=$t/maps/%n.toml"
tf2016_client
export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64

expect_rc 1 srun -N2 -l --cudnn=5.1 "$t/tf2016"
has "cudnn-compat: node2 cannot serve --cudnn=5.1"

expect_rc 1 salloc -N2 "$CUDNN_COMPAT" doctor --nodes --require 5.1
grep -E "^node1 +yes +$t/maps/node1.toml .* yes +ok$" <<<"$out" >/dev/null ||
  fail "node1 not reported ok with its own map:"$'\n'"$out"
grep -E "^node2 +yes +$t/maps/node2.toml .* no +misfit: " <<<"$out" >/dev/null ||
  fail "node2 not reported as misfit with its own map:"$'\n'"$out"
lacks "differs"
short_cells
grep -E "^node2: misfit: .*no installed cuDNN fits" <<<"$out" >/dev/null ||
  fail "node2's whole verdict does not follow the table:"$'\n'"$out"

expect_rc 1 salloc -N2 "$CUDNN_COMPAT" --json doctor --nodes --require 5.1
has "\"map\": \"$t/maps/node2.toml\""
has "\"plugin\": \"$SPANK\""
has '"ok": false'
