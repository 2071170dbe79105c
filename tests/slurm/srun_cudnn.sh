# srun -N2 --cudnn=5.1: the TensorFlow-2016-like client (built with 5.1.3) runs on both nodes and
# each gets 5.1.10 from its node's map, though FAKE 5.0.5 comes first on LD_LIBRARY_PATH. Without
# --cudnn the same step fails with TensorFlow's message on both nodes: the option is what helps.
source "$(dirname "$0")/common.sh"
tf2016_client
node_maps "5.0.5 5.1.10" "5.0.5 5.1.10"
slurm_up "map=$t/maps/%n.toml"
export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64

expect_rc 0 srun --help
has "--cudnn=VERSION"
has "--cudnn-strict"

expect_rc 0 srun -N2 -l --cudnn=5.1 "$t/tf2016"
has "0: cuDNN 5110 from $FAKES/5.1.10/lib64/libcudnn.so.5"
has "1: cuDNN 5110 from $FAKES/5.1.10/lib64/libcudnn.so.5"
lacks "cudnn-compat:"  # silent when every node fits

# --cudnn is the user's word also where the submitting shell's modules pushed the same value
# (Lmod's record of it carried in, beside another application's need): not read as the module's.
CUDNN_COMPAT_REQUIRE=5.1 __LMOD_STACK_CUDNN_COMPAT_REQUIRE=NS4x CUDNN_COMPAT_NEEDS=old/1.0=5.0 \
  expect_rc 0 srun -N2 -l --cudnn=5.1 "$t/tf2016"
has "0: cuDNN 5110 from $FAKES/5.1.10/lib64/libcudnn.so.5"
has "1: cuDNN 5110 from $FAKES/5.1.10/lib64/libcudnn.so.5"

expect_rc 1 srun -N2 -l "$t/tf2016"
count "Loaded runtime CuDNN library: 5005 (compatibility version 5000)" 2
