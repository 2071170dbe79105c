# shim=on in plugstack.conf switches the shim on for every job, without --cudnn and with no
# check; --cudnn=off leaves it off for this job, and the client meets 5.0.5 as it would without
# the plugin.
source "$(dirname "$0")/common.sh"
tf2016_client
node_maps "5.0.5 5.1.10" "5.0.5 5.1.10"
slurm_up shim=on "map=$t/maps/%n.toml"
export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 CUDNN_COMPAT_REQUIRE=5.1

expect_rc 0 srun -N2 -l "$t/tf2016"
count "cuDNN 5110 from $FAKES/5.1.10/lib64/libcudnn.so.5" 2

expect_rc 0 srun -N2 -l --cudnn=off sh -c 'echo "audit=${LD_AUDIT:-unset} map=$CUDNN_COMPAT_MAP"'
count "audit=unset map=$t/map.toml" 2  # the job's own variables pass through untouched
expect_rc 1 srun -N2 -l --cudnn=off "$t/tf2016"
count "Loaded runtime CuDNN library: 5005" 2
