# A probe that runs out of time judged nothing: the line says the library could not be checked
# and why (never "does not load": the library may load, it was slow), and no process remembers
# it - also when several decide at once and wait for one another's answer. The next process with
# more time probes again and is served. Before, the line said "does not load" with no reason, and
# under a crowd the verdict went into the memo (an outside tester's finding).
source "$(dirname "$0")/common.sh"
memo_setting
own_shim
probe_counter
together_client
export PROBE_NAP=3 CUDNN_COMPAT_TIMEOUT=2  # a probe's share is 1 s; it takes 3
settle

for mode in audit preload; do
  rm -rf "$memo"
  expect_rc 0 env LD_${mode^^}=$SHIM "$t/family" libcudnn.so.9
  has "libcudnn.so.9: needs 9.1 from CUDNN_COMPAT_REQUIRE, but $t/own/lib64/libcudnn.so.9 could not be checked (the library gave no answer within 1.0 s); loading as usual"
  has "loaded $t/own/lib64/libcudnn.so.9"
  lacks "does not load"

  rm -rf "$memo"
  expect_rc 0 env LD_${mode^^}=$SHIM "$t/together" 6 "$t/family" libcudnn.so.9
  count "loaded $t/own/lib64/libcudnn.so.9" 6
  lacks "does not load"
  : >"$t/probes"
  PROBE_NAP=0 CUDNN_COMPAT_TIMEOUT=20 expect_rc 0 env LD_${mode^^}=$SHIM "$t/family" libcudnn.so.9
  has "loaded $FAKES/9.1.0/lib64/libcudnn.so.9"
  lacks "cudnn-compat:"
  [[ $(grep -c "^probe $t/own/" "$t/probes") == 1 ]] || fail "$mode: the crowd's timed-out probe was remembered"
done
