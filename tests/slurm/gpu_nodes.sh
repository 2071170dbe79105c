# Two nodes, two GPUs (a FAKE NVML says 7.0 on node1 and 8.0 on node2): srun -N2 --cudnn=9.0 gives
# each node the release its GPU runs (FAKE 9.0.0 carries sm_70 only, FAKE 9.1.0 nvcc's sm_75,
# sm_80 and PTX 9.0), and doctor --nodes names node1 as the node where nothing fits 9.1.
source "$(dirname "$0")/common.sh"
: "${GPU_TEST_DIR:?}" "${NVML_DIR:?}"
[[ -s $GPU_TEST_DIR/sm75_80_ptx90.fatbin ]] || skip "no nvcc at /usr/local/cuda/bin: no real device code was built"
cp -a "$FAKES/9.0.0" "$t/volta"
cp -a "$FAKES/9.1.0" "$t/turing"
"$GPU_TEST_DIR/write-fatbin" "$t/volta.fatbin" cubin:70
objcopy --add-section ".nv_fatbin=$t/volta.fatbin" "$t/volta/lib64/libcudnn_cnn.so.9.0.0"
objcopy --add-section ".nv_fatbin=$GPU_TEST_DIR/sm75_80_ptx90.fatbin" "$t/turing/lib64/libcudnn_cnn.so.9.1.0"
mkdir -p "$t/maps"
for node in node1 node2; do
  printf 'schema = 1\n[[cudnn]]\nversion = "9.0.0"\nlib = "%s"\ncuda = "12.2"\n[[cudnn]]\nversion = "9.1.0"\nlib = "%s"\ncuda = "12.4"\n' \
    "$t/volta/lib64" "$t/turing/lib64" >"$t/maps/$node.toml"
  expect_rc 0 "$CUDNN_COMPAT" map validate "$t/maps/$node.toml"
done
slurm_up shim=on "map=$t/maps/%n.toml"
family_client
export LD_LIBRARY_PATH=$NVML_DIR:$t/turing/lib64
export FAKE_NVML_GPUS_node1=7.0 FAKE_NVML_GPUS_node2=8.0 FAKE_NVML_DRIVER=12020

expect_rc 0 srun -N2 -l --cudnn=9.0 "$t/family" libcudnn.so.9
has "0: loaded $t/volta/lib64/libcudnn.so.9"
has "1: loaded $t/turing/lib64/libcudnn.so.9"
lacks "cudnn-compat:"

expect_rc 1 salloc -N2 "$CUDNN_COMPAT" doctor --nodes --require 9.1
# The table's verdict cell is cut short; the whole verdict follows the table.
grep -E "^node1 .*7\.0 .*misfit: " <<<"$out" >/dev/null &&
  grep -E "^node1: misfit: .*carries no code for compute capability 7\.0" <<<"$out" >/dev/null ||
  fail "node1 not named as the node where nothing fits:"$'\n'"$out"
grep -E "^node2 .*8\.0 .*$t/turing/lib64/libcudnn.so.9 +yes +ok" <<<"$out" >/dev/null ||
  fail "node2 does not get FAKE 9.1.0:"$'\n'"$out"
