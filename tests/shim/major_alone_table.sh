# A major alone (CUDNN_COMPAT_REQUIRE=9, which `srun --cudnn=9` sets) is a need the decision table
# settles like any other: the loader's FAKE 9.0.0 fits "any 9.x" and is kept, and no process is
# started. Before, the shim's reading of the requirement took only major.minor, so every such
# process went to the engine.
source "$(dirname "$0")/common.sh"
family_client
fake_map 9.0.0 9.1.0 >"$t/map.toml"
export CUDNN_COMPAT_MAP=$t/map.toml LD_LIBRARY_PATH=$FAKES/9.0.0/lib64
expect_rc 0 "$CUDNN_COMPAT" map validate "$CUDNN_COMPAT_MAP"
for need in 9 v9 " 9 "; do
  for mode in audit preload; do
    CUDNN_COMPAT_REQUIRE=$need started "$mode" "$t/family" libcudnn.so.9
    has "loaded $FAKES/9.0.0/lib64/libcudnn.so.9"
    lacks "cudnn-compat:"
    [[ $started == 0 ]] || fail "$mode, CUDNN_COMPAT_REQUIRE='$need': $started processes started:"$'\n'"$trace"
  done
done
