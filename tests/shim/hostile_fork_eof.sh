# Issue 9, item 5: a host thread that forks while the engine starts (its children sleep and so hold
# whatever they inherited, the answer pipe included) must not make the shim wait for end-of-file.
# The landed shim waited out its 30 s poll. Five runs; each load returns the redirect within 8 s.
source "$(dirname "$0")/common.sh"
compile fork_eof -pthread <<C
$load5_main
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <sys/wait.h>
#include <unistd.h>
static atomic_int loaded;
enum { kMost = 200 };  /* a few hundred: the engine starts within the first few */
static pid_t children[kMost];
static int forks;
static void *forker(void *arg) {
  (void)arg;
  while (!loaded && forks < kMost) {
    const pid_t p = fork();
    if (p == 0) {
      pause();  /* killed by the parent */
      _exit(0);
    }
    if (p > 0) children[forks++] = p;
  }
  return NULL;
}
int main(void) {
  pthread_t t;
  pthread_create(&t, NULL, forker, NULL);
  while (forks == 0) usleep(100);
  void *lib = load5();
  loaded = 1;
  pthread_join(t, NULL);
  for (int i = 0; i < forks; ++i) kill(children[i], SIGKILL);
  for (int i = 0; i < forks; ++i) waitpid(children[i], NULL, 0);
  printf("%d forks during the load\n", forks);
  return lib ? 0 : 1;
}
C
own_shim
tf2016_setting

for mode in audit preload; do
  for run in 1 2 3 4 5; do
    expect_rc_within 0 8 env LD_${mode^^}=$SHIM "$t/fork_eof"
    has "$redirected"
    end_ours
  done
done
