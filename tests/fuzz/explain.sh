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
objects=()
while read -r kind path; do
  [[ $kind == source ]] || continue
  o=$t/$(basename "$path").o
  # The name grammar is the shim's C parser: built as C, without coverage.
  if [[ $path == *.c ]]; then
    clang "${flags[@]}" -c "$path" -o "$o" 2>"$t/build.log"
  else
    clang++ -std=c++20 -fsanitize=fuzzer-no-link "${flags[@]}" -c "$path" -o "$o" 2>"$t/build.log"
  fi || { cat "$t/build.log"; fail "the fuzz target does not build ($path)"; }
  objects+=("$o")
done <"$FUZZ_BUILD"
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
