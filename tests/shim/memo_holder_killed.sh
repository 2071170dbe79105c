# Issue 20, item 4: a process that waits for another's probe never waits for one that died. Process
# A takes the request's lock and its probe hangs; B, started after it, waits; A is killed (SIGKILL)
# a second later. The kernel drops A's lock, B runs its own probe at once - after the kill, not
# before it: it had waited - and gets the map's FAKE 9.1.0 without a line, long before its own
# deadline (20 s) and A's (12 s). Under LD_AUDIT and LD_PRELOAD. (The landed shim had B probe
# at once, without waiting for A.)
source "$(dirname "$0")/common.sh"
memo_setting
own_shim
# The first probe of each round hangs; later ones log when they start and run the real probe.
mv "$t/lib/cudnn-compat-probe" "$t/lib/cudnn-compat-probe.real"
cat >"$t/lib/cudnn-compat-probe" <<SH
#!/bin/sh
if mkdir "$t/first" 2>/dev/null; then echo \$\$ >"$t/first/pid"; exec sleep 60; fi
echo "probe \$(date +%s%N)" >>"$t/probes"
exec "\$0.real" "\$@"
SH
chmod +x "$t/lib/cudnn-compat-probe"
settle

for mode in audit preload; do
  rm -rf "$memo" "$t/first" "$t/probes"
  env CUDNN_COMPAT_TIMEOUT=12 LD_${mode^^}=$SHIM "$t/family" libcudnn.so.9 >/dev/null 2>&1 &
  a=$!
  for i in $(seq 100); do [[ -s $t/first/pid ]] && break; sleep 0.1; done
  [[ -s $t/first/pid ]] || fail "$mode: A's probe never started"
  (sleep 1 && date +%s%N >"$t/killed" && kill -KILL $a) &
  killer=$!
  expect_rc_within 0 8 env CUDNN_COMPAT_TIMEOUT=20 LD_${mode^^}=$SHIM "$t/family" libcudnn.so.9
  has "loaded $FAKES/9.1.0/lib64/libcudnn.so.9"
  lacks "cudnn-compat:"
  wait $killer
  wait $a || true
  [[ -s $t/probes ]] || fail "$mode: B ran no probe of its own"
  (($(cut -d' ' -f2 "$t/probes" | head -1) > $(<"$t/killed"))) ||
    fail "$mode: B probed before A was killed: it did not wait for A"
  # What A left ends with A (its keeper watches it); the hanging probe is ended here if not yet.
  kill -KILL "$(<"$t/first/pid")" 2>/dev/null || true
  expect_gone "$t/lib"
done
