// cudnn-compat explain: what a cuDNN error message (or a whole job log) means, and the fix.
#include "cli.h"

#include <iostream>
#include <iterator>

namespace cudnn_compat::cli {
namespace {

constexpr std::size_t kMaxInput = std::size_t(256) << 20;  // a job log, not a disk image

nlohmann::json version_json(const std::optional<Version> &v) {
  return v ? nlohmann::json(to_string(*v)) : nlohmann::json(nullptr);
}

nlohmann::json text_or_null(const std::string &s) {
  return s.empty() ? nlohmann::json(nullptr) : nlohmann::json(s);
}

}  // namespace

void add_explain(CLI::App &app, Globals &g) {
  auto words = std::make_shared<std::vector<std::string>>();
  auto map_file = std::make_shared<std::string>();
  CLI::App *cmd = app.add_subcommand(
      "explain",
      "Say what a cuDNN error message means and what fixes it (TEXT, or a log on stdin)");
  cmd->add_option("TEXT", *words, "The message; `-` or nothing reads a whole log from stdin");
  cmd->add_option("--map", *map_file,
                  "The map (default: $CUDNN_COMPAT_MAP, then the installed map)");
  cmd->footer(R"(
Finds the cuDNN errors among timestamps, log prefixes, tracebacks and noise: TensorFlow's
"Loaded runtime CuDNN library ..." in all its forms, PyTorch's, Caffe2's, JAX's "Outdated cuDNN",
PaddlePaddle's, MXNet's, OpenCV's (including its mis-decoded "90.1"), cuDNN's own loader ("Could
not load library ...", "Unable to load any of {...}", "Invalid handle"), CUDNN_STATUS_*_MISMATCH,
the dynamic loader's "cannot open shared object file" and "DNN library initialization failed".
For each: what happened with both versions as x.y.z, which rule refused them and whether NVIDIA's
own policy agrees, and the fix - the installed modules that would fit, from the map when there is
one, or the release to ask the admins for.

Examples:
  cudnn-compat explain 'Loaded runtime CuDNN library: 5005 (compatibility version 5000) but source
    was compiled with 5103 (compatibility version 5100).'
  cudnn-compat explain < slurm-123456.out
  cudnn-compat --json explain - < job.log

Exit status: 0 something recognised, 1 nothing found, 2 bad usage.)");
  cmd->callback([words, map_file, &g] {
    std::string text;
    if (words->empty() || (words->size() == 1 && (*words)[0] == "-")) {
      std::cin.tie(nullptr);
      char buf[1 << 16];
      while (text.size() < kMaxInput && std::cin.read(buf, sizeof buf).gcount() > 0)
        text.append(buf, std::size_t(std::cin.gcount()));
    } else {
      for (const std::string &w : *words) text.append(text.empty() ? "" : " ").append(w);
    }
    const LoadedMap m = load_site_map(*map_file);
    const Map *map = m.map ? &*m.map : nullptr;
    const std::vector<Finding> found = find_errors(text);
    nlohmann::json list = nlohmann::json::array();
    for (const Finding &f : found) {
      const Advice a = advise(f, map);
      if (g.json) {
        list.push_back(
            {{"recognized", f.recognized},
             {"kind", to_string(f.kind)},
             {"framework", text_or_null(f.framework)},
             {"runtime", version_json(f.runtime)},
             {"built_with", version_json(f.built_with)},
             {"library", text_or_null(f.library)},
             {"missing", text_or_null(f.missing)},
             {"rule", f.rule ? nlohmann::json(rule_name(*f.rule)) : nlohmann::json(nullptr)},
             {"compatible", a.compatible ? nlohmann::json(*a.compatible) : nlohmann::json(nullptr)},
             {"fixes", a.fixes},
             {"what", a.what},
             {"note", text_or_null(f.note)},
             {"line", f.line}});
        continue;
      }
      std::cout << "line " << f.line << ": " << f.text.substr(0, 200)
                << (f.text.size() > 200 ? "..." : "") << '\n';
      std::cout << "  what happened: " << a.what << '\n';
      if (!f.note.empty()) std::cout << "  note: " << f.note << '\n';
      if (!a.rule.empty()) std::cout << "  " << a.rule << '\n';
      for (const std::string &fix : a.fixes) std::cout << "  fix: " << fix << '\n';
    }
    if (g.json) print_json(list);
    if (found.empty()) {
      if (!g.json)
        complain("found no cuDNN error in the " + std::to_string(text.size()) + " bytes read");
      g.exit_code = kNo;
    }
  });
}

}  // namespace cudnn_compat::cli
