// cudnn-compat probe: the true version of an installed cuDNN.
#include "cli.h"
#include "diagnostics.h"

#include <iostream>

namespace cudnn_compat::cli {

void add_probe(CLI::App &app, Globals &g) {
  auto paths = std::make_shared<std::vector<std::string>>();
  CLI::App *cmd = app.add_subcommand(
      "probe", "Report the true cuDNN and CUDA version of a library or directory");
  cmd->add_option("PATH", *paths, "A libcudnn.so.<major> file, or the directory holding it")
      ->required()
      ->type_name("PATH");
  cmd->footer(R"(
Each library is loaded in a child process and asked: cudnnGetVersion() and cudnnGetCudartVersion().
No GPU is needed. When it cannot be loaded (a missing dependency, a crash), the version header beside
it (cudnn_version.h, or cudnn.h before 8.0) is read instead, then the file name; "source" says which.

Examples:
  cudnn-compat probe /usr/local/cuda/lib64
  cudnn-compat probe --json /opt/cudnn/5.1.10/lib64/libcudnn.so.5

Exit status: 0 every path probed, 1 a path holds no cuDNN, 2 bad usage.)");
  cmd->callback([paths, &g] {
    const ProbeOptions options = probe_options();
    nlohmann::json all = nlohmann::json::array();
    for (const std::string &path : *paths) {
      const Parsed<std::vector<Probe>> found = probe(path, options);
      if (!found) {
        g.exit_code = kNo;
        if (g.json)
          all.push_back({{"file", path}, {"error", found.error}});
        else
          Error() << found.error;
        continue;
      }
      for (const Probe &p : *found) {
        if (g.json)
          all.push_back(json_of(p));
        else
          std::cout << p.file << ": " << describe(p) << '\n';
      }
    }
    if (g.json) print_json(all.size() == 1 ? all[0] : all);
  });
}

}  // namespace cudnn_compat::cli
