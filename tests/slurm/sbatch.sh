# sbatch --cudnn=5.1 reaches every step of the batch job: a script with two srun steps runs the
# TensorFlow-2016-like client on both nodes in each, and every run gets 5.1.10.
source "$(dirname "$0")/common.sh"
tf2016_client
node_maps "5.0.5 5.1.10" "5.0.5 5.1.10"
slurm_up "map=$t/maps/%n.toml"
export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64
cat >"$t/job.sh" <<JOB
#!/bin/bash
srun -N2 -l "$t/tf2016"
srun -N2 -l "$t/tf2016"
JOB

expect_rc 0 sbatch --help
has "--cudnn=VERSION"
expect_rc 0 sbatch -N2 --cudnn=5.1 --wait -o "$t/job.out" "$t/job.sh"
out=$(<"$t/job.out")
count "0: cuDNN 5110 from $FAKES/5.1.10/lib64/libcudnn.so.5" 2
count "1: cuDNN 5110 from $FAKES/5.1.10/lib64/libcudnn.so.5" 2
lacks "Loaded runtime CuDNN library"
