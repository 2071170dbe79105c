# Issue 9, item 2, in a host that adopts orphans by nature: PID 1 of a PID namespace, as in a
# container (`unshare --pid --fork --mount-proc`), with the client and setting of
# hostile_subreaper.sh. The orphaned probe went to the host with the landed shim.
source "$(dirname "$0")/common.sh"
# As root, or as anyone through a user namespace of their own.
pid_namespace
adopter_setting
for mode in audit preload; do
  for round in 1 2 3; do
    expect_rc_files 0 timeout -k 2 60 "${namespace[@]}" env LD_${mode^^}=$SHIM "$t/adopter"
    grep -qx "host pid 1" <<<"$out" || fail "the host was not PID 1 of its namespace:"$'\n'"$out"
    adopter_ran
  done
done
