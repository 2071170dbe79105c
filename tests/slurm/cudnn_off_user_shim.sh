# Issue 25 item 6: --cudnn=off means off, also for the shim a user's `cudnn-compat` module put
# into the environment (LD_AUDIT), which srun carries into the job: the client meets the 5.0.5
# on its path, as without cudnn-compat. Other audit modules of the job stay.
source "$(dirname "$0")/common.sh"
tf2016_client
node_maps "5.0.5 5.1.10" "5.0.5 5.1.10"
slurm_up "map=$t/maps/%n.toml"
export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 CUDNN_COMPAT_REQUIRE=5.1 CUDNN_COMPAT_MAP=$t/maps/node1.toml
export LD_AUDIT=$SHIM  # as `module load cudnn-compat` sets it

expect_rc 0 srun -N2 -l "$t/tf2016"  # the user's shim at work
count "cuDNN 5110 from $FAKES/5.1.10/lib64/libcudnn.so.5" 2

expect_rc 0 srun -N2 -l --cudnn=off sh -c 'echo "audit=${LD_AUDIT:-unset}"'
count "audit=unset" 2
expect_rc 1 srun -N2 -l --cudnn=off "$t/tf2016"
count "Loaded runtime CuDNN library: 5005" 2

other=$BUILD_DIR/bin/libnull_audit.so
if [[ -f $other ]]; then
  LD_AUDIT=$other:$SHIM expect_rc 0 srun -N1 -l --cudnn=off sh -c 'echo "audit=${LD_AUDIT:-unset}"'
  has "audit=$other"
  lacks "libcudnn-compat.so"
fi
