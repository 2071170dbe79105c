#!/usr/bin/env bash
# A decision table cut short (here right after its last fit row, as a full disk or a copy stopped
# half way leaves it) is not trusted: under LD_AUDIT and LD_PRELOAD the shim asks the engine, as
# for any table it cannot trust, and the client still gets the fitting release.
source "$(dirname "$0")/common.sh"
command -v strace >/dev/null || skip "strace is not installed (scripts/deps.sh installs it)"
tf2016_client
fake_map 5.0.5 5.1.10 >"$t/map.toml"
expect_rc 0 "$CUDNN_COMPAT" map validate "$t/map.toml"
tail -n 2 "$t/map.toml.decide" | head -n 1 | grep -q '^fit	' ||
  fail "the table does not end with a fit row and its end marker:"$'\n'"$(cat "$t/map.toml.decide")"
export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 CUDNN_COMPAT_REQUIRE=5.1.3

# execve calls of env, the client and whatever the decision started.
decisions() {
  expect_rc 0 strace -f -qq -e trace=execve -o "$t/trace" env LD_${1^^}=$SHIM "$t/tf2016"
  has "cuDNN 5110 from $FAKES/5.1.10/lib64/libcudnn.so.5"
  grep -c 'execve(' "$t/trace"
}
for mode in audit preload; do
  [[ $(decisions $mode) == 2 ]] || fail "$mode: the whole table did not settle the load"
done

truncate -s $(($(stat -c %s "$t/map.toml.decide") - 4)) "$t/map.toml.decide"  # drops "end\n"
for mode in audit preload; do
  n=$(decisions $mode)
  ((n > 2)) || fail "$mode: a table cut short was trusted (no engine started):"$'\n'"$(cat "$t/trace")"
done
