// cudnn-compat shim-path: where libcudnn-compat.so is, for LD_AUDIT/LD_PRELOAD lines and scripts.
#include "cli.h"
#include "diagnostics.h"

#include <unistd.h>

#include <iostream>

namespace cudnn_compat::cli {

void add_shim_path(CLI::App &app, Globals &g) {
  CLI::App *cmd = app.add_subcommand("shim-path", "Print the path of the shim, libcudnn-compat.so");
  cmd->footer(R"(
The shim hands every load of cuDNN a compatible installed release, the whole family of
sub-libraries from one directory. Switch it on for a job with either of:

  export LD_AUDIT=$(cudnn-compat shim-path)     # preferred: also sees libraries linked at build
  export LD_PRELOAD=$(cudnn-compat shim-path)   # where audit is not possible: dlopen only

It reads CUDNN_COMPAT_REQUIRE, CUDNN_COMPAT_CUDA (where an application module set them, the
need of the one loaded last, from CUDNN_COMPAT_NEEDS), CUDNN_COMPAT_MAP, CUDNN_COMPAT_TIMEOUT (whole
seconds for one decision, 1 to 86400; default, and for any other value, 10), CUDNN_COMPAT_GPU_ARCH and CUDNN_COMPAT_DRIVER_CUDA (this node's
GPUs and driver, where they cannot be learnt), CUDNN_COMPAT_USAGE=report-only (decide and record,
but load what the loader would; any other non-empty value counts as report-only, said in one
line), CUDNN_COMPAT_REPORT=1 (at exit, one line per cuDNN library the process holds),
CUDNN_COMPAT_DEBUG=1 (one line per decision), CUDNN_COMPAT_DISABLE=1 (a pure pass-through) and
CUDNN_COMPAT_LOG (where its lines go: stderr, the default; syslog; or an absolute file path,
appended).

Exit status: 0 printed, 1 the shim is not installed beside this cudnn-compat.)");
  cmd->callback([&g] {
    const std::string path = pkglib_dir() + "/libcudnn-compat.so";
    const bool present = access(path.c_str(), R_OK) == 0;
    if (g.json)
      print_json({{"path", path}, {"exists", present}});
    else if (present)
      std::cout << path << '\n';
    else
      Error() << path + " is missing; reinstall cudnn-compat (cmake --install)";
    g.exit_code = present ? kYes : kNo;
  });
}

}  // namespace cudnn_compat::cli
