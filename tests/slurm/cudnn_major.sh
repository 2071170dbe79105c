# Issue 25 item 7: a major alone is a need ("any 9.x that fits the rule"): srun --cudnn=9 checks
# each node and switches the shim on; it used to pass srun and then run every node without the
# shim ("could not check"). The job needs CUDA 12: the real cuDNN 9 this machine may carry is
# built for CUDA 13, so the loader's pick does not fit and each task gets 9.1.0 from its node's
# map (without the shim it gets whatever the loader finds, or nothing).
source "$(dirname "$0")/common.sh"
family_client
mkdir -p "$t/maps"
for n in node1 node2; do
  printf 'schema = 1\n[[cudnn]]\nversion = "9.1.0"\nlib = "%s"\ncuda = "12.4"\n' \
    "$FAKES/9.1.0/lib64" >"$t/maps/$n.toml"
done
slurm_up "map=$t/maps/%n.toml"
export CUDNN_COMPAT_CUDA=12

expect_rc 0 srun -N2 -l --cudnn=9 "$t/family" libcudnn.so.9
count "version 90100" 2
lacks "cudnn-compat:"
expect_rc 0 srun -N2 -l --cudnn=9 sh -c 'echo "require=$CUDNN_COMPAT_REQUIRE audit=${LD_AUDIT:-unset}"'
count "require=9 audit=${SPANK%/*}/libcudnn-compat.so" 2
expect_rc 1 srun -N2 -l --cudnn=8 --cudnn-strict "$t/family" libcudnn.so.8
count "cannot serve --cudnn=8: no installed cuDNN fits cuDNN 8" 2
