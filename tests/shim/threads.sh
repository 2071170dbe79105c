# 16 threads load cuDNN and other libraries at once while the main thread forks, and the child
# execs a program that loads cuDNN: no deadlock, no crash, and every thread and the child get the
# redirected release. Also run under ThreadSanitizer when the compiler has it. (The child execs
# rather than calling dlopen itself: glibc's own dlopen in a child forked during another thread's
# dlopen can deadlock or assert without any shim; we checked.)
source "$(dirname "$0")/common.sh"
src=$(cat <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
static const char *names[] = {"libcudnn.so.5", "libm.so.6", "libcudnn.so", "libz.so.1",
                              "libcudnn.so.5", "libnosuch.so"};
static int wrong;
static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
static size_t version(void *h) { return ((size_t (*)(void))dlsym(h, "cudnnGetVersion"))(); }
static void *work(void *arg) {
  for (int i = 0; i < 40; ++i) {
    const char *name = names[((long)arg + i) % 6];
    void *h = dlopen(name, RTLD_NOW);
    if (h && name[5] == 'u' && version(h) != 5110) {
      pthread_mutex_lock(&mutex);
      ++wrong;
      pthread_mutex_unlock(&mutex);
    }
    if (h) dlclose(h);
  }
  return NULL;
}
int main(int argc, char **argv) {
  if (argc > 1) {  /* the exec'd child */
    void *h = dlopen("libcudnn.so.5", RTLD_NOW);
    return h && version(h) == 5110 ? 0 : 1;
  }
  pthread_t t[16];
  for (long i = 0; i < 16; ++i) pthread_create(&t[i], NULL, work, (void *)i);
  const pid_t child = fork();
  if (child == 0) {
    execl("/proc/self/exe", argv[0], "child", (char *)NULL);
    _exit(127);
  }
  int status = 0;
  waitpid(child, &status, 0);
  for (int i = 0; i < 16; ++i) pthread_join(t[i], NULL);
  printf("wrong %d, child %s\n", wrong, WIFEXITED(status) && WEXITSTATUS(status) == 0 ? "ok" : "failed");
  return wrong != 0;
}
C
)
compile threads -pthread <<<"$src"
fake_map 5.0.5 5.1.10 >"$t/map.toml"
export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 CUDNN_COMPAT_REQUIRE=5.1
for mode in audit preload; do
  for round in 1 2 3; do
    expect_rc 0 timeout 60 env LD_${mode^^}=$SHIM "$t/threads"
    has "wrong 0, child ok"
  done
done

# libtsan linked statically: loaded as a shared library it needs more static TLS than glibc leaves
# once any LD_AUDIT module is present ("cannot allocate memory in static TLS block"), ours or not.
tsan=(-fsanitize=thread -static-libtsan)
if echo 'int main(void){return 0;}' | "$CC" "${tsan[@]}" -x c - -o "$t/tsan-probe" 2>/dev/null &&
   "$t/tsan-probe" 2>/dev/null; then
  compile threads-tsan -pthread "${tsan[@]}" -g <<<"$src"
  for mode in audit preload; do
    expect_rc 0 timeout 120 env LD_${mode^^}=$SHIM TSAN_OPTIONS="halt_on_error=1 suppressions=$(dirname "$0")/tsan.supp" "$t/threads-tsan"
    has "wrong 0, child ok"
    lacks "ThreadSanitizer"
  done
else
  echo "note: $CC has no working ThreadSanitizer here; ran without it"
fi
