# Issue 27, item 4: a signal handler that loads cuDNN (dlopen RTLD_NOLOAD) while its own thread is
# inside the shim's decision passes through as the ordinary load, and the decision goes on (the
# redirect is kept); a thread that waits for another's decision waits no longer than that decision
# may last. With the landed shim both hung for ever on the shim's lock: the handler waited for its
# own thread, and (second client) a thread waited for a holder whose handler waited for it.
source "$(dirname "$0")/common.sh"
compile reentry <<C
$load5_main
#include <signal.h>
#include <sys/time.h>
static volatile sig_atomic_t handled;
static void on_alarm(int sig) {
  (void)sig;
  handled = dlopen("libcudnn.so.5", RTLD_NOW | RTLD_NOLOAD) ? 2 : 1;
}
int main(void) {
  signal(SIGALRM, on_alarm);
  struct itimerval once = {{0, 0}, {0, 20 * 1000}};  // inside the decision: the engine is late
  setitimer(ITIMER_REAL, &once, 0);
  void *lib = load5();
  printf("the handler's load: %s\n", handled == 1 ? "not loaded yet" : handled ? "loaded" : "none");
  return lib ? 0 : 1;
}
C
# Thread A decides; its handler waits for thread B's load, which must not wait for A for ever.
compile waiter -pthread <<C
$load5_main
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <sys/time.h>
static sem_t go, done;
static void on_alarm(int sig) {
  (void)sig;
  sem_post(&go);
  while (sem_wait(&done) != 0) {}
}
static void *other(void *arg) {
  (void)arg;
  while (sem_wait(&go) != 0) {}
  // A load, not a query: an RTLD_NOLOAD query decides nothing and never waits.
  void *lib = dlopen("libcudnn.so.5", RTLD_NOW);
  printf("the other thread's load returned (%s)\n", lib ? "loaded" : "not loaded");
  fflush(stdout);
  sem_post(&done);
  return 0;
}
int main(void) {
  sem_init(&go, 0, 0), sem_init(&done, 0, 0);
  sigset_t alarm;
  sigemptyset(&alarm), sigaddset(&alarm, SIGALRM);
  pthread_sigmask(SIG_BLOCK, &alarm, 0);  // the handler runs in the deciding thread
  pthread_t t;
  pthread_create(&t, 0, other, 0);
  pthread_sigmask(SIG_UNBLOCK, &alarm, 0);
  signal(SIGALRM, on_alarm);
  struct itimerval once = {{0, 0}, {0, 20 * 1000}};
  setitimer(ITIMER_REAL, &once, 0);
  void *lib = load5();
  pthread_join(t, 0);
  return lib ? 0 : 1;
}
C
own_shim
slow_engine
tf2016_setting

for mode in audit preload; do
  expect_rc_within 0 10 env LD_${mode^^}=$SHIM "$t/reentry"
  has "$redirected"
  has "the handler's load: not loaded yet"
  lacks "cudnn-compat:"
done

# Under LD_AUDIT the decision runs inside the loader's own lock, which another thread's dlopen
# waits for before it reaches the shim (so without the shim too, were the handler to interrupt a
# load): only LD_PRELOAD has threads wait for the shim's lock.
export CUDNN_COMPAT_TIMEOUT=2
expect_rc_within 0 12 env LD_PRELOAD=$SHIM "$t/waiter"
has "the other thread's load returned (loaded)"
has "cudnn-compat: another thread's decision has not ended by its deadline (CUDNN_COMPAT_TIMEOUT); loading as usual"
has "gave no answer within CUDNN_COMPAT_TIMEOUT"  # the deciding thread's own deadline passed meanwhile
has "cuDNN 5005"
