# The memo (docs/shim.md) remembers a Python requester's decision only for the same set of Python
# libraries loaded beside it: a torch-only process's answer (the wheel's 9.20.0, which its pin
# takes) must not be recalled for a process that has also loaded a JAX plugin pinning >=9.23, whose
# fresh decision is the map's 9.23.0. Before, the second process got 9.20.0 from the memo (an
# outside tester's finding).
source "$(dirname "$0")/common.sh"
mkdir -m 700 "$t/run"
export XDG_RUNTIME_DIR=$t/run
two_consumers_site
load='import ctypes, sys
for peer in sys.argv[2:]: ctypes.CDLL(peer)
sys.exit(ctypes.CDLL(sys.argv[1]).framework_load(b""))'
sleep 1.1  # the memo keeps no decision resting on a file changed within the last second

for mode in audit preload; do
  rm -rf "$t/run/cudnn-compat"
  for run in 1 2; do
    expect_rc 0 $mode python3 -c "$load" "$torch"
    has "version 92000"
  done
  [[ -n $(ls -A "$t/run/cudnn-compat" 2>/dev/null) ]] || fail "$mode: nothing was remembered"
  expect_rc 0 $mode python3 -c "$load" "$torch" "$jax"
  has "version 92300"
  lacks "cudnn-compat:"
done
