# Issue 25 items 1 and 4: the plugin installed without the shim beside it (a node's install cut
# short). With shim=on, every process of every job there used to print ld.so's "cannot be loaded
# as audit interface"; now the node says it in one line and the job runs without the shim. doctor
# --nodes names the missing file.
source "$(dirname "$0")/common.sh"
mkdir -p "$t/lonely/lib/cudnn-compat" "$t/lonely/bin"
cp "$SPANK" "$t/lonely/lib/cudnn-compat/"
ln -s "$CUDNN_COMPAT" "$t/lonely/bin/cudnn-compat"
SPANK=$t/lonely/lib/cudnn-compat/spank-cudnn-compat.so
node_maps "5.0.5 5.1.10" "5.0.5 5.1.10"
slurm_up shim=on "map=$t/maps/%n.toml"

expect_rc 0 srun -N2 -l sh -c '/bin/true; /bin/true; echo "audit=${LD_AUDIT:-unset}"'
lacks "ld.so"
count "audit=unset" 2
count "the shim $t/lonely/lib/cudnn-compat/libcudnn-compat.so is missing; the job runs without it" 2

expect_rc 1 salloc -N2 "$CUDNN_COMPAT" doctor --nodes --require 5.1
count ": the shim $t/lonely/lib/cudnn-compat/libcudnn-compat.so is missing: jobs run without it here" 2
