#include "cli.h"

#include <iostream>

namespace cudnn_compat::cli {

CLI::Option *add_map_option(CLI::App *cmd, std::string &path, const std::string &name) {
  return cmd->add_option(name, path, "The map (default: $CUDNN_COMPAT_MAP, then the installed map)")
      ->type_name("FILE");
}

namespace {
bool json_printed = false;
}  // namespace

void print_json(const nlohmann::json &j) {
  // Paths and messages come from the file system and other programs: never let a byte that is
  // not UTF-8 turn into an exception.
  std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
  json_printed = true;
}

bool printed_json() {
  return json_printed;
}

nlohmann::json json_of(const std::optional<Version> &v) {
  return v ? nlohmann::json(to_string(*v)) : nlohmann::json(nullptr);
}

nlohmann::json json_of(const Diagnostic &d) {
  return {{"severity", d.severity == Severity::error ? "error" : "warning"},
          {"file", d.file},
          {"line", d.pos.line ? nlohmann::json(d.pos.line) : nlohmann::json(nullptr)},
          {"column", d.pos.column ? nlohmann::json(d.pos.column) : nlohmann::json(nullptr)},
          {"message", d.message}};
}

nlohmann::json json_of(const Installed &e) {
  return {{"version", to_string(e.version)},
          {"lib", e.lib},
          {"cuda", json_of(e.cuda)},
          {"module", e.module.empty() ? nlohmann::json(nullptr) : nlohmann::json(e.module)},
          {"source", to_string(source_of(e))},
          {"load_first", e.load_first},
          {"hand_out", e.hand_out}};
}

nlohmann::json json_of(const std::optional<NodeFacts> &node) {
  if (!node) return nullptr;
  return {{"gpus", gpu_list(node->gpus)},
          {"driver_cuda", json_of(node->driver_cuda)},
          {"source", node->source}};
}

nlohmann::json json_of(const Probe &p) {
  return {{"file", p.file},
          {"version", to_string(p.version)},
          {"cuda", json_of(p.cuda)},
          {"source", to_string(p.source)},
          {"note", p.note.empty() ? nlohmann::json(nullptr) : nlohmann::json(p.note)}};
}

std::string describe(const Probe &p) {
  std::string s = "cuDNN " + to_string(p.version);
  if (p.cuda) s += " for CUDA " + to_string(*p.cuda);
  switch (p.source) {
    case ProbeSource::library:
      return s + " (reported by the library)";
    case ProbeSource::header:
      return s + " (from the version header: " + p.note + ")";
    case ProbeSource::filename:
      return s + " (from the file name only: " + p.note + ")";
  }
  return s;
}

}  // namespace cudnn_compat::cli
