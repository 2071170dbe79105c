/* fakecudnn-client LIBRARY FUNCTION: loads a cuDNN dispatcher, calls one of its status functions
 * (cudnnCreate, cudnnOpsVersionCheck, ...) and exits with that status modulo 256.
 *
 * A separate, uninstrumented process on purpose: a sanitizer's dlopen interceptor becomes the
 * caller of the dispatcher's own dlopen calls, so glibc would search the sanitizer runtime's
 * RUNPATH instead of the dispatcher's $ORIGIN and the family would not load - the pitfall of
 * FACTS.md section 6, which the shim must avoid and the tests must not trip over. */
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  if (argc != 3) {
    fputs("usage: fakecudnn-client LIBRARY FUNCTION\n", stderr);
    return 2;
  }
  void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    fprintf(stderr, "dlopen: %s\n", dlerror());
    return 99;
  }
  void *fn = dlsym(lib, argv[2]);
  if (!fn) {
    fprintf(stderr, "dlsym: %s\n", dlerror());
    return 98;
  }
  if (strcmp(argv[2], "cudnnCreate") == 0) {
    void *handle = NULL;
    return ((int (*)(void **))fn)(&handle) % 256;
  }
  return ((int (*)(void))fn)() % 256;
}
