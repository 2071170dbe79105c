# The plugin as installed (cmake --install into a prefix of its own, as a site would): it finds
# the shim beside it and cudnn-compat in <prefix>/bin from its own location, so --cudnn=5.1 serves
# node1 and the check names node2, whose map lacks 5.1.
source "$(dirname "$0")/common.sh"
: "${BUILD_DIR:?}"
cmake --install "$BUILD_DIR" --prefix "$t/prefix" >/dev/null
SPANK=$t/prefix/lib/cudnn-compat/spank-cudnn-compat.so
[[ -f $SPANK ]] || fail "install lacks lib/cudnn-compat/spank-cudnn-compat.so"
tf2016_client
node_maps "5.0.5 5.1.10" "5.0.5 7.6.5"
slurm_up "map=$t/maps/%n.toml"
export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64

expect_rc 1 srun -N2 -l --cudnn=5.1 "$t/tf2016"  # node2's client meets 5.0.5
has "0: cuDNN 5110 from $FAKES/5.1.10/lib64/libcudnn.so.5"
has "1: cudnn-compat: node2 cannot serve --cudnn=5.1: no installed cuDNN fits"
expect_rc 0 srun -N1 -w node1 --cudnn=5.1 sh -c 'echo "audit=$LD_AUDIT"'
has "audit=$t/prefix/lib/cudnn-compat/libcudnn-compat.so"
