/* A FAKE cuDNN sub-library (libcudnn_<sub>.so.<major>) for tests: not NVIDIA's code. It tells the
 * fake dispatcher which release it belongs to, so a mixed family is detected as the real one is. */
#include <stddef.h>

__attribute__((visibility("default"))) size_t fakecudnn_sublibrary_version(void) {
  return FAKE_VERSION;
}
