# A short libFuzzer run of explain's reader (ASan and UBSan on), seeded with the shared examples.
# CI runs it for FUZZ_SECONDS (default 30); a crash fails the test and leaves the input in $t.
source "$(dirname "$0")/../scenario.sh"
: "${SOURCE:?}"
command -v clang++ >/dev/null || skip "no clang++ (scripts/deps.sh installs it)"
core=$SOURCE/src/core
# The name grammar is the shim's C parser: built as C, linked in.
clang -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -c "$SOURCE/shim/shim_text.c" \
  -o "$t/shim_text.o" 2>"$t/build.log" || { cat "$t/build.log"; fail "the fuzz target does not build"; }
clang++ -std=c++20 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
  -I"$core" -I"$core/lib/text" -I"$core/report" -I"$SOURCE/shim" \
  "$(dirname "$0")/explain_fuzz.cc" "$core"/report/{explain,explain_build,explain_frameworks,explain_general,explain_loader,explain_more_frameworks,explain_words,advice}.cc \
  "$core"/model/{version,names,rules}.cc "$core"/decide/{resolve,fit}.cc "$core"/lib/text/text.cc \
  "$t/shim_text.o" -o "$t/explain_fuzz" 2>"$t/build.log" || { cat "$t/build.log"; fail "the fuzz target does not build"; }
mkdir "$t/corpus"
i=0
while IFS= read -r line; do
  python3 -c 'import json,sys; sys.stdout.write(json.loads(sys.argv[1])["message"])' "$line" \
    >"$t/corpus/example-$((i++))"
done <"$SOURCE/tests/explain/error-examples.jsonl"
cd "$t"
expect_rc 0 "$t/explain_fuzz" -max_total_time="${FUZZ_SECONDS:-30}" -max_len=65536 \
  -timeout=10 -rss_limit_mb=2048 "$t/corpus"
has "Done"
