/* 16 threads load cuDNN and other libraries at once while the main thread forks, and the child
 * execs this program again to load cuDNN: every cuDNN handle must be the redirected 5.1.10.
 * Shared by threads.sh and threads_tsan.sh. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
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
    if (h && strstr(name, "cudnn") && version(h) != 5110) {
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
