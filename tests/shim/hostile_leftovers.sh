# Nothing of the shim's outlives the decision, even when the decision ends early (the least
# deadline, CUDNN_COMPAT_TIMEOUT=1; 0 counts as the default since 416f218) or the host is killed in
# the middle of it: the keeper holds none of the host's fds (a `$(...)` around the host ends), and
# keeps the deadline itself. Found by an outside tester with an engine that hangs and leaves a
# child.
source "$(dirname "$0")/common.sh"
tf2016_client
own_shim
tf2016_setting
fake_engine hang-probe
for mode in audit preload; do
  CUDNN_COMPAT_TIMEOUT=1 expect_rc_within 1 8 env LD_${mode^^}=$SHIM "$t/tf2016"
  has "gave no answer"
  captured=$(CUDNN_COMPAT_TIMEOUT=1 timeout -k 2 16 env LD_${mode^^}=$SHIM "$t/tf2016" 2>&1) ||
    [[ $? == 1 ]] || fail "$mode: \$(host) did not end: ${captured:0:300}"
  expect_gone "$t/lib"

  CUDNN_COMPAT_TIMEOUT=2 env LD_${mode^^}=$SHIM "$t/tf2016" >/dev/null 2>&1 &
  host=$!
  sleep 0.5
  kill -KILL $host
  wait $host 2>/dev/null || true
  expect_gone "$t/lib"  # within the keeper's own deadline (2 s) and the 5 s grace
done
