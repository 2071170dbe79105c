# Issue 27, item 3: a host killed with SIGKILL during a decision. The keeper shares the host's
# memory, so it must end with the host, not at the deadline: within 5 s here, the deadline 30 s
# away, nothing of the host's session is left (the keeper, the engine). While the decision runs,
# the keeper bears a name of its own, not the host's. With the landed shim the keeper, named as
# the host, kept the host's memory until the deadline.
source "$(dirname "$0")/common.sh"
compile big_host <<C
$load5_main
#include <stdlib.h>
#include <string.h>
int main(void) {
  const size_t n = (size_t)256 << 20;
  char *memory = malloc(n);
  memset(memory, 1, n);
  load5();
  return memory[n - 1];
}
C
own_shim
fake_engine hang
tf2016_setting
export CUDNN_COMPAT_TIMEOUT=30

# session SID: the names (comm) of the live processes of session SID, one a line (a zombie holds
# no memory; whoever adopted it reaps it in its own time).
session() { ps -o stat=,comm= -s "$1" | awk '$1 !~ /^Z/ { print $2 }' || true; }
for mode in audit preload; do
  rm -f "$t/lib/cudnn-compat-select.fds"
  setsid env LD_${mode^^}=$SHIM "$t/big_host" </dev/null >"$t/output" 2>&1 &
  host=$!  # setsid runs in place (a background job leads no group): the session is the host's
  for i in $(seq 100); do [[ -e $t/lib/cudnn-compat-select.fds ]] && break; sleep 0.1; done
  [[ -e $t/lib/cudnn-compat-select.fds ]] || fail "$mode: the engine never ran"
  out=$(session $host)
  [[ $(grep -cx big_host <<<"$out") == 1 ]] || fail "$mode: the host's name is borne by more than the host:"$'\n'"$out"
  [[ $(grep -cx cudnn-compat <<<"$out") == 1 ]] || fail "$mode: no keeper named cudnn-compat:"$'\n'"$out"
  kill -KILL $host
  wait $host || true
  for i in $(seq 50); do [[ -z $(session $host) ]] && break; sleep 0.1; done
  out=$(session $host)
  [[ -z $out ]] || fail "$mode: 5 s after the host was killed its session still holds:"$'\n'"$out"
done
