# The map's decision table (map.toml.decide, written by `map validate`) settles the usual load
# without a process, and says what the engine says: for needs that fit, that do not, and
# with the loader finding either release first, under LD_AUDIT and LD_PRELOAD, the library each
# client gets is the same with the table as without it (when the engine decides).
source "$(dirname "$0")/common.sh"
command -v strace >/dev/null || skip "strace is not installed (scripts/deps.sh installs it)"
tf2016_client
fake_map 5.0.5 5.1.10 9.0.0 9.1.0 >"$t/map.toml"
expect_rc 0 "$CUDNN_COMPAT" map validate "$t/map.toml"
[[ -s $t/map.toml.decide ]] || fail "map validate wrote no decision table"

# No process at all when the table knows both libraries: the client's own execve only.
export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 CUDNN_COMPAT_REQUIRE=5.1.3
for mode in audit preload; do
  expect_rc 0 strace -f -qq -e trace=execve -o "$t/trace" env LD_${mode^^}=$SHIM "$t/tf2016"
  has "cuDNN 5110 from $FAKES/5.1.10/lib64/libcudnn.so.5"
  n=$(grep -c 'execve(' "$t/trace")
  [[ $n == 2 ]] || fail "$mode: the decision started processes (execve calls: env, client and $((n - 2)) more):"$'\n'"$(cat "$t/trace")"
done

# One decision procedure: the table's answers against the engine's, case by case.
family_client
answers() {
  local mode=$1 need path name
  for need in "" 5.0 5.0.5 5.1 5.1.3 5.1.10 5.2 9.0 9.1 9.1.0 9.2; do
    for path in "" 5.0.5 5.1.10 9.0.0 9.1.0; do
      for name in libcudnn.so.5 libcudnn.so.9; do
        out=$(env ${need:+CUDNN_COMPAT_REQUIRE=$need} LD_LIBRARY_PATH=${path:+$FAKES/$path/lib64} \
              LD_${mode^^}=$SHIM "$t/family" "$name" 2>/dev/null | grep -E '^(version|dlopen)' || true)
        echo "$mode need=${need:-none} path=${path:-none} $name: ${out//$'\n'/ }"
      done
    done
  done
}
unset CUDNN_COMPAT_REQUIRE
for mode in audit preload; do
  answers $mode >"$t/with-table.$mode"
  mv "$t/map.toml.decide" "$t/decide.aside"
  answers $mode >"$t/engine.$mode"
  mv "$t/decide.aside" "$t/map.toml.decide"
  diff "$t/engine.$mode" "$t/with-table.$mode" || fail "$mode: the table and the engine disagree (< engine, > table)"
  grep -q "need=5.1 path=5.0.5 libcudnn.so.5: version 5110" "$t/with-table.$mode" ||
    fail "$mode: no redirect seen in the comparison:"$'\n'"$(cat "$t/with-table.$mode")"
done
