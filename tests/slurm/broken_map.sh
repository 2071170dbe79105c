# A broken map on node2 (named by node2's own environment, CUDNN_COMPAT_MAP of its slurmd) costs
# one line naming node2 and the map's error, and the job runs on both nodes: the plugin never
# breaks a job, not even with --cudnn-strict. node1, whose map is fine, gets the shim; node2's
# tasks run without it, as they would without the plugin.
source "$(dirname "$0")/common.sh"
tf2016_client
node_maps "5.0.5 5.1.10" ""
printf 'schema = 1\n[[cudnn]]\nversion = "5.1.10"\n' >"$t/maps/node2.toml"  # no lib
SLURMD_ENV_node1="CUDNN_COMPAT_MAP=$t/maps/node1.toml" SLURMD_ENV_node2="CUDNN_COMPAT_MAP=$t/maps/node2.toml" \
  slurm_up
export LD_LIBRARY_PATH=$FAKES/5.1.10/lib64

for strict in "" --cudnn-strict; do
  expect_rc 0 srun -N2 -l --cudnn=5.1 $strict "$t/tf2016"
  count "cudnn-compat:" 1
  has "1: cudnn-compat: node2: could not check --cudnn=5.1 ($t/maps/node2.toml:"
  has "the job runs without the shim"
  count "cuDNN 5110 from $FAKES/5.1.10/lib64/libcudnn.so.5" 2
done

expect_rc 0 srun -N2 -l --cudnn=5.1 sh -c 'echo "audit=${LD_AUDIT:-unset}"'
has "0: audit=$SHIM"
has "1: audit=unset"
count "cudnn-compat:" 1
