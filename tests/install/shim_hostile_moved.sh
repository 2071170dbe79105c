#!/usr/bin/env bash
# Issue 27: the shim's scenarios of its third hostile round (tests/shim: hostile_exec, _killed,
# _reentry, _seccomp, _stderr, log_syslog, check_not_run), each run against an installed tree that
# was then moved, with no CUDNN_COMPAT_* set: the moved shim starts its keeper and the engine beside
# it, and says its lines where they belong, from where the tree is now.
. "$(dirname "$0")/common.sh"
install_to "$t/first"
mv "$t/first" "$t/moved"
p=$t/moved
ran=0
for scenario in hostile_exec hostile_killed hostile_reentry hostile_seccomp hostile_stderr log_syslog \
  check_not_run; do
  rc=0
  SHIM=$p/lib/cudnn-compat/libcudnn-compat.so CUDNN_COMPAT=$p/bin/cudnn-compat \
    bash "$SOURCE/tests/shim/$scenario.sh" >"$t/$scenario.log" 2>&1 || rc=$?
  [[ $rc == 0 || $rc == 77 ]] ||
    fail "tests/shim/$scenario.sh against the moved tree exited $rc:"$'\n'"$(cat "$t/$scenario.log")"
  [[ $rc == 0 ]] && ran=$((ran + 1)) || echo "$scenario: skipped: $(cat "$t/$scenario.log")"
done
# Nothing proven when every scenario lacked what it needs.
[[ $ran -gt 0 ]] || skip "every scenario skipped"
