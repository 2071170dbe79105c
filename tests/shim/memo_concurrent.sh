# Issue 20, item 4: processes that start at the same moment on one node share one probe. 64
# processes are released together, with a cold memo, while the first probe of the user's own copy
# of FAKE 9.0.0 takes a second: exactly one probe runs, the other 63 wait for its answer, and all
# 64 get the map's 9.1.0 without a line. Under LD_AUDIT and LD_PRELOAD, on a node learnt before and
# on a fresh one (no node file yet: the first job after boot, where the engine writes the file its
# answer rests on). (The landed shim ran 64; on a fresh node the memo kept nothing and the 63 each
# ran their own engine and probe.)
source "$(dirname "$0")/common.sh"
memo_setting
own_shim
probe_counter
together_client
export PROBE_NAP=1
settle

for mode in audit preload; do
  for node in learnt fresh; do
    rm -rf "$memo"
    [[ $node == learnt ]] || rm -f "$node_of_scenario"
    : >"$t/probes"
    expect_rc 0 env LD_${mode^^}=$SHIM "$t/together" 64 "$t/family" libcudnn.so.9
    count "loaded $FAKES/9.1.0/lib64/libcudnn.so.9" 64
    lacks "cudnn-compat:"
    # The library's probes (a fresh node's own look at its GPUs is another's).
    ran=$(grep -c "^probe $t/own/" "$t/probes")
    [[ $ran == 1 ]] || fail "$mode, $node node: $ran probes ran for 64 processes:"$'\n'"$(cat "$t/probes")"
  done
done
