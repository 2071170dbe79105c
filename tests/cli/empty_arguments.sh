# Issue 27, item 14: an empty argument is bad usage (exit 2, a line naming the option), never taken
# as absent: `map validate ''` validated $CUDNN_COMPAT_MAP instead, and `modulefiles -o ''` wrote
# into the working directory. Every subcommand's options and positionals that take a value.
source "$(dirname "$0")/common.sh"
fake_map >"$t/map.toml"
export CUDNN_COMPAT_MAP=$t/map.toml
mkdir "$t/cwd" && cd "$t/cwd"

empty() {  # empty ARGS...: the command, with '' in it, is refused and writes nothing here
  expect_rc 2 cc "$@"
  has "an empty argument"
  [[ -z $(ls -A "$t/cwd") ]] || fail "$*: wrote into the working directory: $(ls -A "$t/cwd")"
}
empty map validate ''
empty map show ''
empty modulefiles --format lua -o ''
empty modulefiles --format lua -o "$t/out" --map ''
empty modulefiles --format lua -o "$t/out" --cuda-module ''
empty resolve ''
empty resolve libcudnn.so.5 --require ''
empty resolve libcudnn.so.5 --cuda ''
empty resolve libcudnn.so.5 --rule ''
empty resolve libcudnn.so.5 --map ''
empty resolve libcudnn.so.5 --for ''
empty decode ''
empty check --built-with '' --runtime 5.1.3
empty check --built-with 5.1.3 --runtime ''
empty probe ''
empty scan --modules none --search ''
empty scan --modules none --search "$FAKES" -o ''
empty scan --modulepath '' --modules none --search "$FAKES"
empty doctor --require ''
empty doctor --map ''
empty doctor --for ''
empty explain --map '' 'cuDNN version incompatibility'
empty module-check --system lmod --need ''
empty module-check --system lmod --need tf/1=5.1 --loaded ''

# The value itself still works where it is not empty.
expect_rc 0 cc map validate "$t/map.toml"

# No CUDA module is --no-cuda-module, not --cuda-module '' (which the help offered): the modules
# then depend on none; by default on cuda/<the map's CUDA>.
expect_rc 0 cc modulefiles --format lua -o "$t/none" --no-cuda-module
grep -rq depends_on "$t/none" && fail "--no-cuda-module: $(grep -r depends_on "$t/none")"
expect_rc 0 cc modulefiles --format lua -o "$t/default"
grep -rq 'depends_on("cuda/8.0")' "$t/default" || fail "no depends_on(\"cuda/8.0\") by default"
expect_rc 2 cc modulefiles --format lua -o "$t/both" --no-cuda-module --cuda-module CUDA/{cuda}
