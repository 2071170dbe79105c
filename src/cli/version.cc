// This build's version, from the header cmake/package_version.cmake writes at every build.
#include "cli.h"
#include "cudnn_compat_version.h"

namespace cudnn_compat::cli {

const char *version() {
  return CUDNN_COMPAT_VERSION;
}

}  // namespace cudnn_compat::cli
