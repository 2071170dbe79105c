/* cudnn-compat-probe LIBRARY: loads one cuDNN library and prints what it says of itself.
 *
 * From 8.0 on the dispatcher's own sub-library version checks run too: a library whose family
 * does not load whole, or mixed, is no answer (probe.cc gives the child the family of the
 * library's own directory, as the shim hands it over).
 *
 * A process of its own, so that a library that crashes, hangs or prints in its constructor cannot
 * take the tool down, and so that no shim or preload of the caller's environment takes part
 * (probe.cc starts it with those removed). Output, one line each: "version N", "cudart N", or
 * "error TEXT"; then "load_us N", what loading and checking the library took (bench/memo_bench
 * counts it in the floor of a first load). */
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

typedef size_t (*version_fn)(void);
typedef int (*check_fn)(void);

/* FACTS.md section 2: cuDNN 8's and 9's sub-library version checks; 0 is CUDNN_STATUS_SUCCESS. */
static const char *const checks[] = {"cudnnOpsInferVersionCheck", "cudnnOpsTrainVersionCheck",
                                     "cudnnCnnInferVersionCheck", "cudnnCnnTrainVersionCheck",
                                     "cudnnAdvInferVersionCheck", "cudnnAdvTrainVersionCheck",
                                     "cudnnGraphVersionCheck",    "cudnnOpsVersionCheck",
                                     "cudnnCnnVersionCheck",      "cudnnAdvVersionCheck"};

int main(int argc, char **argv) {
  if (argc != 2) {
    fputs("usage: cudnn-compat-probe LIBRARY\n", stderr);
    return 2;
  }
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
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
  for (size_t i = 0; i < sizeof checks / sizeof checks[0]; ++i) {
    check_fn check = (check_fn)dlsym(lib, checks[i]);
    const int status = check ? check() : 0;
    if (status != 0) {
      printf("error its sub-libraries do not load as one release (%s returned %d)\n", checks[i],
             status);
      return 3;
    }
  }
  const size_t v = version(), cuda = cudart ? cudart() : 0;
  clock_gettime(CLOCK_MONOTONIC, &end);
  printf("version %zu\n", v);
  if (cudart) printf("cudart %zu\n", cuda);
  printf("load_us %ld\n",
         (long)((end.tv_sec - start.tv_sec) * 1000000 + (end.tv_nsec - start.tv_nsec) / 1000));
  fflush(stdout);
  /* The answer is out; a library whose destructors misbehave must not turn it into a failure. */
  _exit(0);
}
