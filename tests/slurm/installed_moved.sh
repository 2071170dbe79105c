# Issue 25 items 1, 5, 6 and 7 with the plugin as installed and then moved (cmake --install into
# one prefix, the tree moved to another, as a site copies a node image): doctor --nodes, run by the
# moved tool, names the moved plugin and each node's own map (%n) and finds node2's misfit;
# --cudnn=off takes the moved shim a user's module set out of the job; --cudnn=9 is served.
source "$(dirname "$0")/common.sh"
: "${BUILD_DIR:?}"
cmake --install "$BUILD_DIR" --prefix "$t/first" >/dev/null
mv "$t/first" "$t/moved"
SPANK=$t/moved/lib/cudnn-compat/spank-cudnn-compat.so
shim=$t/moved/lib/cudnn-compat/libcudnn-compat.so
tf2016_client
mkdir -p "$t/maps"
for n in node1 node2; do
  fake_map 5.0.5 $([[ $n == node1 ]] && echo 5.1.10) 9.1.0 >"$t/maps/$n.toml"
done
slurm_up "map=$t/maps/%n.toml"
unset CUDNN_COMPAT_MAP

expect_rc 1 salloc -N2 "$t/moved/bin/cudnn-compat" doctor --nodes --require 5.1
grep -E "^node1 +yes +$t/maps/node1.toml .* yes +ok$" <<<"$out" >/dev/null ||
  fail "node1 not ok with its own map:"$'\n'"$out"
grep -E "^node2 +yes +$t/maps/node2.toml .* no +misfit: " <<<"$out" >/dev/null ||
  fail "node2's misfit not found:"$'\n'"$out"
expect_rc 1 salloc -N2 "$t/moved/bin/cudnn-compat" --json doctor --nodes --require 5.1
count "\"plugin\": \"$SPANK\"" 2

export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 CUDNN_COMPAT_REQUIRE=5.1 CUDNN_COMPAT_MAP=$t/maps/node1.toml
LD_AUDIT=$shim expect_rc 0 srun -N1 -w node1 "$t/tf2016"
has "cuDNN 5110 from $FAKES/5.1.10/lib64/libcudnn.so.5"
LD_AUDIT=$shim expect_rc 1 srun -N1 -w node1 --cudnn=off "$t/tf2016"
has "Loaded runtime CuDNN library: 5005"
unset CUDNN_COMPAT_REQUIRE CUDNN_COMPAT_MAP
expect_rc 0 srun -N2 -l --cudnn=9 sh -c 'echo "audit=$LD_AUDIT require=$CUDNN_COMPAT_REQUIRE"'
count "audit=$shim require=9" 2
