# node2's map has no 5.1: srun -N2 --cudnn=5.1 warns in one line that names node2, the
# requirement and what node2 has, and the step runs (node1 on 5.1.10). With --cudnn-strict the
# step fails on node2 with that line, before the program starts there.
source "$(dirname "$0")/common.sh"
tf2016_client
node_maps "5.0.5 5.1.10" "5.0.5 7.6.5"
slurm_up "map=$t/maps/%n.toml"
export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64
warning="cudnn-compat: node2 cannot serve --cudnn=5.1: no installed cuDNN fits"

expect_rc 1 srun -N2 -l --cudnn=5.1 "$t/tf2016"  # node2's client meets 5.0.5 and fails itself
count "$warning" 1
has "1: $warning"
has "it has 5.0.5, 7.6.5"
has "0: cuDNN 5110 from $FAKES/5.1.10/lib64/libcudnn.so.5"
has "1: Loaded runtime CuDNN library: 5005"
lacks "node1 cannot serve"

expect_rc 0 srun -N2 -l --cudnn=5.1 true
count "$warning" 1

expect_rc 1 srun -N2 -l --cudnn=5.1 --cudnn-strict "$t/tf2016"
has "1: $warning"
has "--cudnn-strict: the step fails on this node"
has "srun: error: node2: task 1: Exited with exit code 1"
has "0: cuDNN 5110 from $FAKES/5.1.10/lib64/libcudnn.so.5"
lacks "1: Loaded runtime CuDNN library"  # node2's program never started
