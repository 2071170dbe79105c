# Issue 20, item 4, in the hosts jobs are made of: the memo answers (no process) and is waited for
# (one probe for two processes) in a host that loads cuDNN from a thread with a 16 KiB stack, with
# stdin and stderr closed (the memo's descriptors take their numbers) and a 10 ms interval timer
# whose handler does not restart system calls (every nap and read of the memo is interrupted).
# The user's own copy of FAKE 5.0.5 is first on the path, 5.1.3 required: the map's 5.1.10. Under
# LD_AUDIT and LD_PRELOAD. (The landed shim started the engine every time.)
source "$(dirname "$0")/common.sh"
memo_on
command -v strace >/dev/null || skip "strace is not installed (scripts/deps.sh installs it)"
compile host -pthread <<C
$load5_main
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>
static volatile sig_atomic_t alarms;
static void on_alarm(int sig) { (void)sig, ++alarms; }
static void *run(void *arg) { (void)arg; return load5(); }
int main(void) {
  close(0), close(2);
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_alarm;  /* no SA_RESTART */
  sigaction(SIGALRM, &sa, NULL);
  struct itimerval every_10ms = {{0, 10000}, {0, 10000}};
  setitimer(ITIMER_REAL, &every_10ms, NULL);
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  if (pthread_attr_setstacksize(&attr, 16384) != 0) return 2;
  pthread_t t;
  void *lib = 0;
  if (pthread_create(&t, &attr, run, NULL) != 0) return 2;
  pthread_join(t, &lib);
  printf("%d alarms\n", (int)alarms);
  return lib ? 0 : 1;
}
C
own_shim
probe_counter
mkdir "$t/site"
fake_map 5.0.5 5.1.10 >"$t/site/map.toml"
export CUDNN_COMPAT_MAP=$t/site/map.toml CUDNN_COMPAT_REQUIRE=5.1.3
expect_rc 0 "$CUDNN_COMPAT" map validate "$CUDNN_COMPAT_MAP"
cp -a "$FAKES/5.0.5" "$t/own"
export LD_LIBRARY_PATH=$t/own/lib64
settle

for mode in audit preload; do
  rm -rf "$memo"
  : >"$t/probes"
  # Two at once, the first probe taking a second: the second host waits through its alarms.
  PROBE_NAP=1 env LD_${mode^^}=$SHIM "$t/host" >"$t/first.out" &
  first=$!
  sleep 0.3
  expect_rc 0 env LD_${mode^^}=$SHIM "$t/host"
  has "$redirected"
  second=$out
  wait $first || fail "$mode: the first host failed: $(cat "$t/first.out")"
  out=$(<"$t/first.out") && has "$redirected"
  [[ $(probes_run) == 1 ]] || fail "$mode: $(probes_run) probes for two hosts"
  (($(sed -n 's/^\([0-9]*\) alarms$/\1/p' <<<"$second") > 0)) || fail "$mode: no alarm while waiting: the test proved nothing"
  # And the memo's answer with no process, through the same alarms.
  started $mode "$t/host"
  has "$redirected"
  [[ $started == 0 ]] || fail "$mode: the memo's answer started $started processes:"$'\n'"$trace"
done
