# Issue 21, items 5 and 6 on a real two-node Slurm: each node check writes one line to that node's
# slurmd log (job, step, node, need, verdict), node2's "cannot serve" included; the tasks' usage
# records carry the job and step ids the plugin sets; --cudnn-report-only records what the shim
# would have handed over while the task loads what it would without the shim.
source "$(dirname "$0")/common.sh"
tf2016_client
node_maps "5.0.5 5.1.10" "5.0.5 7.6.5"
mkdir -m 1733 "$t/spool"
for n in 1 2; do printf '[usage]\nmode = "record"\nto = "%s"\n' "$t/spool" >>"$t/maps/node$n.toml"; done
slurm_up "map=$t/maps/%n.toml"
export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64

expect_rc 1 srun -N2 -l --cudnn=5.1 "$t/tf2016"  # node2 has no 5.1: its client fails itself
has "0: cuDNN 5110 from $FAKES/5.1.10/lib64/libcudnn.so.5"
out=$(cat "$t"/slurm/slurmd-node1.log)
has "cudnn-compat: job "
has " step 0 node node1 need 5.1 verdict fits"
job=$(sed -n 's/.*cudnn-compat: job \([0-9]*\) step 0 node node1 .*/\1/p' "$t/slurm/slurmd-node1.log" | head -n 1)
out=$(cat "$t"/slurm/slurmd-node2.log)
has "cudnn-compat: job $job step 0 node node2 need 5.1 verdict cannot serve: node2 cannot serve --cudnn=5.1"
out=$(cat "$t"/spool/*.usage)
count " job=$job.0 " 2
count " verdict=redirected mode=record " 1
count " verdict=refused mode=record " 1

rm "$t"/spool/*.usage
expect_rc 1 srun -N1 -w node1 --cudnn=5.1 --cudnn-report-only "$t/tf2016"
has "Loaded runtime CuDNN library: 5005"
out=$(cat "$t"/spool/*.usage)
count " got=$FAKES/5.1.10/lib64/libcudnn.so.5 rel=5.1.10 src=module mod=cudnn/5.1.10 verdict=redirected mode=report-only " 1
