# Where the shim must start its engine (the loader's library is unknown to the decision table), the
# engine takes the table's word for the libraries the table knows and probes only the unknown one.
source "$(dirname "$0")/common.sh"
command -v strace >/dev/null || skip "strace is not installed (scripts/deps.sh installs it)"
tf2016_client
fake_map 5.0.5 5.1.10 >"$t/map.toml"
expect_rc 0 "$CUDNN_COMPAT" map validate "$t/map.toml"
cp -a "$FAKES/5.0.5" "$t/own"  # a user's own copy: no map, no table knows it
export LD_LIBRARY_PATH=$t/own/lib64 CUDNN_COMPAT_REQUIRE=5.1.3

probes() {  # the libraries the decision probed, one per line
  expect_rc 0 strace -f -qq -s 4096 -e trace=execve -o "$t/trace" env LD_$1=$SHIM "$t/tf2016"
  has "cuDNN 5110 from $FAKES/5.1.10/lib64/libcudnn.so.5"
  grep -o 'cudnn-compat-probe", "[^"]*' "$t/trace" | sed 's/.*", "//' || true
}
for mode in AUDIT PRELOAD; do
  p=$(probes $mode)
  [[ $p == "$t/own/lib64/libcudnn.so.5" ]] || fail "$mode: probed other than the unknown library:"$'\n'"$p"
done
# The control: without the table the engine probes the release it hands over too.
rm "$t/map.toml.decide"
p=$(probes AUDIT)
grep -qx "$FAKES/5.1.10/lib64/libcudnn.so.5" <<<"$p" || fail "without a table the release was not probed:"$'\n'"$p"
