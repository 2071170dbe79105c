/* cudnn-compat-probe LIBRARY: loads one cuDNN library and prints what it says of itself.
 *
 * A process of its own, so that a library that crashes, hangs or prints in its constructor cannot
 * take the tool down, and so that no shim or preload of the caller's environment takes part
 * (probe.cc starts it with those removed). Output, one line each: "version N", "cudart N", or
 * "error TEXT". */
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <unistd.h>

typedef size_t (*version_fn)(void);

int main(int argc, char **argv) {
  if (argc != 2) {
    fputs("usage: cudnn-compat-probe LIBRARY\n", stderr);
    return 2;
  }
  void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    printf("error %s\n", dlerror());
    return 3;
  }
  version_fn version = (version_fn)dlsym(lib, "cudnnGetVersion");
  /* cudnnGetCudartVersion appeared in cuDNN 6; its absence is an answer, not an error. */
  version_fn cudart = (version_fn)dlsym(lib, "cudnnGetCudartVersion");
  if (!version) {
    printf("error %s exports no cudnnGetVersion\n", argv[1]);
    return 3;
  }
  printf("version %zu\n", version());
  if (cudart) printf("cudart %zu\n", cudart());
  fflush(stdout);
  /* The answer is out; a library whose destructors misbehave must not turn it into a failure. */
  _exit(0);
}
