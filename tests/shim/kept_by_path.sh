# Issue 23, item 1: a load the decision table keeps (the loader's own file fits) is handed to the
# loader as the path the table probed, so that the loader does not walk LD_LIBRARY_PATH for it
# again: a job's path names several modules' directories before cuDNN's, and at scale each failed
# open there is a metadata operation on the shared tree, per rank. Under LD_AUDIT and LD_PRELOAD.
source "$(dirname "$0")/common.sh"
command -v strace >/dev/null || skip "strace is not installed (scripts/deps.sh installs it)"
family_client
mkdir -p "$t/site" "$t/nccl" "$t/openmpi" "$t/openblas"
fake_map 9.0.0 9.1.0 >"$t/site/map.toml"
export CUDNN_COMPAT_MAP=$t/site/map.toml CUDNN_COMPAT_REQUIRE=9.1
expect_rc 0 "$CUDNN_COMPAT" map validate "$CUDNN_COMPAT_MAP"
settle
export LD_LIBRARY_PATH=$t/nccl:$t/openmpi:$t/openblas:$FAKES/9.1.0/lib64
# Without the shim the loader tries each module's directory for the name.
expect_rc 0 strace -f -qq -e trace=openat -o "$t/files" "$t/family" libcudnn.so.9
grep -q "openat(AT_FDCWD, \"$t/nccl/libcudnn.so.9\"" "$t/files" || fail "the loader did not walk the path (the test proves nothing):"$'\n'"$(<"$t/files")"
for mode in audit preload; do
  out=$(env "LD_${mode^^}=$SHIM" "$t/family" libcudnn.so.9 2>&1)
  has "loaded $FAKES/9.1.0/lib64/libcudnn.so.9"
  lacks "cudnn-compat:"
  expect_rc 0 strace -f -qq -e trace=openat -o "$t/files" env "LD_${mode^^}=$SHIM" "$t/family" libcudnn.so.9
  ! grep -E "openat\(AT_FDCWD, \"$t/(nccl|openmpi|openblas)/libcudnn" "$t/files" ||
    fail "$mode: the loader walked the modules' directories for a kept cuDNN:"$'\n'"$(<"$t/files")"
done
