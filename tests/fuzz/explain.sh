# A short libFuzzer run of explain's reader (ASan and UBSan on), seeded with the real messages of
# tests/explain (the shared examples, the tuning and the held-back sets).
# CI runs it for FUZZ_SECONDS (default 30); a crash fails the test and leaves the input in $t.
source "$(dirname "$0")/../scenario.sh"
: "${SOURCE:?}" "${FUZZ_BUILD:?}"
command -v clang++ >/dev/null || skip "no clang++ (scripts/deps.sh installs it)"
# The layers the target links, as CMake lists them (tests/fuzz/CMakeLists.txt): their sources go
# into one archive, so only what the reader uses is linked.
includes=()
while read -r kind path; do [[ $kind == include ]] && includes+=("-I$path"); done <"$FUZZ_BUILD"
flags=(-O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all "${includes[@]}")
# Compiled on every core: one after another they took most of the test's time on a busy machine.
compile_one() {
  local path=$1 o=$2
  # The name grammar is the shim's C parser: built as C, without coverage.
  if [[ $path == *.c ]]; then
    clang "${flags[@]}" -c "$path" -o "$o" 2>"$o.log"
  else
    clang++ -std=c++20 -fsanitize=fuzzer-no-link "${flags[@]}" -c "$path" -o "$o" 2>"$o.log"
  fi || { cat "$o.log"; echo "the fuzz target does not build ($path)" >"$o.failed"; }
}
objects=()
while read -r kind path; do
  [[ $kind == source ]] || continue
  o=$t/$(basename "$path").o
  while (($(jobs -rp | wc -l) >= $(nproc))); do wait -n || true; done
  compile_one "$path" "$o" &
  objects+=("$o")
done <"$FUZZ_BUILD"
wait
for o in "${objects[@]}"; do [[ -e $o.failed ]] && fail "$(<"$o.failed")"; done
ar rcs "$t/layers.a" "${objects[@]}"
clang++ -std=c++20 -fsanitize=fuzzer "${flags[@]}" "$(dirname "$0")/explain_fuzz.cc" "$t/layers.a" \
  -o "$t/explain_fuzz" 2>"$t/build.log" || { cat "$t/build.log"; fail "the fuzz target does not build"; }
mkdir "$t/corpus"
python3 - "$t/corpus" "$SOURCE"/tests/explain/*.jsonl <<'PY'
import json, sys
n = 0
for path in sys.argv[2:]:
    for line in open(path):
        if line.strip():
            open(f"{sys.argv[1]}/example-{n}", "w").write(json.loads(line)["message"])
            n += 1
PY
cd "$t"
expect_rc 0 "$t/explain_fuzz" -max_total_time="${FUZZ_SECONDS:-30}" -max_len=65536 \
  -timeout=10 -rss_limit_mb=2048 "$t/corpus"
has "Done"
