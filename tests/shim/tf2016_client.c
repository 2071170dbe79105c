/* The client TensorFlow 0.x-1.x was in 2016: dlopen libcudnn.so.5 by bare name, compare
 * cudnnGetVersion() with the version it was built with under the 2016 rule, and fail with the very
 * message users saw. Prints the loaded file from the link map when it works. Used by the loader
 * scenarios and by the demo. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
int main(void) {
  const size_t built = 5103;
  void *lib = dlopen("libcudnn.so.5", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    fprintf(stderr, "Couldn't open CUDA library libcudnn.so.5: %s\n", dlerror());
    return 1;
  }
  size_t (*version)(void) = (size_t (*)(void))dlsym(lib, "cudnnGetVersion");
  const size_t loaded = version();
  if (loaded / 100 != built / 100) {
    fprintf(stderr, "Loaded runtime CuDNN library: %zu (compatibility version %zu) but source was "
            "compiled with %zu (compatibility version %zu).  If using a binary install, upgrade "
            "your CuDNN library to match.  If building from sources, make sure the library loaded "
            "at runtime matches a compatible version specified during compile configuration.\n",
            loaded, loaded / 100 * 100, built, built / 100 * 100);
    return 1;
  }
  struct link_map *map;
  dlinfo(lib, RTLD_DI_LINKMAP, &map);
  printf("cuDNN %zu from %s\n", loaded, map->l_name);
  return 0;
}
