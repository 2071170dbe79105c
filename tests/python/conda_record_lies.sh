# A conda record that says another release than its library does (9.23.0 said, 9.20.0 loaded) is
# passed over, and the line says whose word it was: the conda record's, not the map's, and it does
# not send the admin to `map validate --probe`, which cannot mend it (an outside tester's finding).
source "$(dirname "$0")/common.sh"
conda_env "$t/conda" 9.20.0
record=$(echo "$t"/conda/conda-meta/cudnn-9.20.0.48-*.json)
sed 's/"version": "9.20.0.48"/"version": "9.23.0.48"/' "$record" >"$t/record" && mv "$t/record" "$record"
export LD_LIBRARY_PATH=$FAKES/9.0.0/lib64 CUDNN_COMPAT_REQUIRE=9.21
for mode in audit preload; do
  expect_rc 0 $mode c_client "$t/conda/lib/libtf_conda.so"
  has "its conda record (conda-meta) says 9.23.0.48 but $t/conda/lib/libcudnn.so.9 reports 9.20.0"
  lacks "the map says"
  lacks "map validate --probe"
done

# resolve takes the release as its library reports it, as the shim does, and says whose word
# it set aside.
CONDA_PREFIX=$t/conda expect_rc 1 env -u CUDNN_COMPAT_MAP "$CUDNN_COMPAT" resolve libcudnn.so.9
has "no    9.20.0 (conda)"
has "as its library reports it: its conda record (conda-meta) says 9.23.0.48 but $t/conda/lib/libcudnn.so.9 reports 9.20.0"
lacks "-> $t/conda"

# A record whose version is no release ("9.20": conda takes any string): the environment is not
# dropped without a word. scan --python lists it as its library reports and says why; resolve
# says it is not counted and how to list it (an outside tester's finding).
sed 's/"version": "9.23.0.48"/"version": "9.20"/' "$record" >"$t/record" && mv "$t/record" "$record"
expect_rc 0 "$CUDNN_COMPAT" scan --modules none --python "$t/conda" --json
has "cudnn-compat: scan: $record: its version \"9.20\" is no cuDNN release (x.y.z); its library is read for its version"
has '"version": "9.20.0"'
CONDA_PREFIX=$t/conda expect_rc 1 env -u CUDNN_COMPAT_MAP "$CUDNN_COMPAT" resolve libcudnn.so.9
has "$record: its version \"9.20\" is no cuDNN release (x.y.z), so the cuDNN in $t/conda/lib is not counted here; \`cudnn-compat scan --python $t/conda\` lists it by its library's own version"
