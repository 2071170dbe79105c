# Issue 9, item 2, in a host that adopts orphans: a PR_SET_CHILD_SUBREAPER process with two threads
# in wait() and waitid(P_ALL) (adopter_client.c). The engine is killed at the deadline while it
# probes a library that spins; the threads must collect only the host's own worker, and nothing
# of ours may remain below the host once the load has returned. With the landed shim the probe,
# orphaned by the killed engine, was handed to the host and reaped by it (every run here).
source "$(dirname "$0")/common.sh"
adopter_setting
for mode in audit preload; do
  for round in 1 2 3; do
    expect_rc_files 0 timeout -k 2 60 env LD_${mode^^}=$SHIM "$t/adopter" subreaper
    adopter_ran
  done
done
