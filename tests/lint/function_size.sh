# No function over 60 lines in src/ and shim/ (BRIEF.md): scripts/function_size.py finds them.
source "$(dirname "$0")/common.sh"
command -v python3 >/dev/null || skip "python3 is not installed (scripts/deps.sh installs it)"
size() { python3 "$SOURCE_DIR/scripts/function_size.py" "$@"; }

# The measure first, on functions of known length: a body of 61 lines is one too many, lambdas,
# strings and comments with braces in them count as the function's own lines.
body() { for ((i = 0; i < $1; i++)); do echo '  x += 1;'; done; }
mkdir "$t/src"
{
  echo 'namespace n {'
  echo 'int fits() {'; echo '  auto f = [] { return "}"; };  // }'; body 58; echo '}'
  echo 'int over(int x) {'; echo '  /* { */'; body 59; echo '}'
  echo '}  // namespace n'
} >"$t/src/sample.cc"
expect_rc 1 size "$t/src"
has "sample.cc:63: over: 61 lines"
lacks "fits"

expect_rc 0 size "$SOURCE_DIR/src" "$SOURCE_DIR/shim"
