# Issue 9, item 3: nothing of ours outlives the decision. An engine that starts a probe and exits
# without an answer (the probe lives on, holding what it inherited), and an engine that hangs with
# its probe until the deadline: after the load, no process from the engine's directory runs, and
# `( client 5>&1 ) | cat` ends. With the landed shim the probe lived on and held the host's pipe, so
# cat never saw end-of-file.
source "$(dirname "$0")/common.sh"
deadline_setting

for mode in audit preload; do
  fake_engine orphan
  rm -f "$t"/lib/*.fds
  # cat ends only when every holder of the client's stdout and fd 5 is gone.
  expect_rc_within 0 8 bash -c '( env LD_'${mode^^}'="$1" "$2" 5>&1 2>"$3" ) | cat' _ "$SHIM" "$t/tf2016" "$t/err"
  [[ -e $t/lib/cudnn-compat-select.fds ]] || fail "the engine never ran ($mode)"
  out=$(<"$t/err")
  has "Loaded runtime CuDNN library: 5005"
  expect_gone "$t/lib"

  fake_engine hang-probe
  expect_rc_files 1 timeout -k 2 60 env LD_${mode^^}=$SHIM "$t/tf2016"
  [[ -e $t/lib/cudnn-compat-select.fds ]] || fail "the engine never ran ($mode)"
  has "Loaded runtime CuDNN library: 5005"
  expect_gone "$t/lib"
done
