# Issue 9: tables beside the map that the map's owner mistyped or planted never cost the host its
# load: a `fit` row edited to name another major's library is not followed (a name that carries a
# major is served by that major only), and a FIFO at the table's name neither blocks the shim nor
# the engine (it waited forever, then until the deadline).
source "$(dirname "$0")/common.sh"
fake_map 5.0.5 5.1.10 9.1.0 >"$t/map.toml"
"$CUDNN_COMPAT" map validate "$t/map.toml" >/dev/null
export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 CUDNN_COMPAT_REQUIRE=5.1.3
compile load <<<"$load5_main
int main(void) { return load5() ? 0 : 1; }"
# Every major-5 fit row now names the 9.1.0 entry, the table's mtime kept.
nine=$(awk -F'\t' '$1 == "lib" && $0 ~ /9\.1\.0/ { print $2; exit }' "$t/map.toml.decide")
[[ -n $nine ]] || fail "no lib row for 9.1.0 in: $(cat "$t/map.toml.decide")"
cp -p "$t/map.toml.decide" "$t/decide.saved"
awk -F'\t' -v OFS='\t' -v nine="$nine" '$1 == "fit" && $2 == "5" { $5 = nine } { print }' \
  "$t/decide.saved" >"$t/map.toml.decide"
touch -r "$t/decide.saved" "$t/map.toml.decide"
cmp -s "$t/decide.saved" "$t/map.toml.decide" && fail "the table was not edited"
for mode in audit preload; do
  expect_rc 0 $mode "$t/load"
  has "$redirected"
done

rm "$t/map.toml.decide" && mkfifo "$t/map.toml.decide"
for mode in audit preload; do
  expect_rc 0 timeout -k 2 20 env CUDNN_COMPAT_TIMEOUT=10 LD_${mode^^}=$SHIM "$t/load"
  has "$redirected"
done
