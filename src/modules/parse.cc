// Reading what Lmod and Environment Modules print (pure).
#include "modules.h"
#include "text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>

namespace cudnn_compat {

bool is_cudnn_module(std::string_view full_name) {
  std::string lower(full_name.substr(0, full_name.find('/')));
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return char(std::tolower(c)); });
  // cudnn-compat's own module switches the shim on; it provides no cuDNN.
  return lower.find("cudnn") != std::string::npos && lower != "cudnn-compat";
}

namespace {
// Visible modules first: a directory two modules share is listed under the one users see.
bool before(const ModuleLibs &a, const ModuleLibs &b) {
  return a.hidden != b.hidden ? !a.hidden : a.name < b.name;
}
}  // namespace

Parsed<std::vector<ModuleLibs>> parse_spider_json(std::string_view text) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return Parsed<std::vector<ModuleLibs>>::fail("spider printed no JSON object");
  std::vector<ModuleLibs> out;
  for (const auto &[sn, files] : j.items()) {
    if (!files.is_object()) continue;
    for (const auto &[file, m] : files.items()) {
      if (!m.is_object() || !m.contains("fullName") || !m["fullName"].is_string()) continue;
      ModuleLibs lib{m["fullName"].get<std::string>(), file, {}, m.value("hidden", false)};
      if (!is_cudnn_module(lib.name)) continue;
      if (m.contains("lpathA") && m["lpathA"].is_object())
        for (const auto &[dir, _] : m["lpathA"].items()) lib.lib_dirs.push_back(dir);
      out.push_back(std::move(lib));
    }
  }
  std::sort(out.begin(), out.end(), before);
  return {out, {}};
}

Parsed<std::vector<ModuleLibs>> parse_avail_json(std::string_view text) {
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return Parsed<std::vector<ModuleLibs>>::fail("module avail printed no JSON object");
  std::vector<ModuleLibs> out;
  for (const auto &[path, mods] : j.items()) {
    if (!mods.is_object()) continue;
    for (const auto &[name, m] : mods.items()) {
      if (!m.is_object() || m.value("type", "") != "modulefile" || !is_cudnn_module(name)) continue;
      const std::string base = name.substr(name.rfind('/') + 1);
      out.push_back({name, m.value("pathname", ""), {}, !base.empty() && base[0] == '.'});
    }
  }
  std::sort(out.begin(), out.end(), before);
  return {out, {}};
}

std::vector<std::string> parse_display_lib_dirs(std::string_view text) {
  std::vector<std::string> dirs;
  for (std::string_view line : split(text, '\n')) {
    // "prepend-path\tLD_LIBRARY_PATH /a:/b" (modulecmd aligns with tabs or spaces)
    std::vector<std::string_view> words;
    for (std::string_view w : split(line, ' '))
      for (std::string_view v : split(w, '\t'))
        if (!v.empty()) words.push_back(v);
    if (words.size() < 3 || (words[0] != "prepend-path" && words[0] != "append-path") ||
        words[1] != "LD_LIBRARY_PATH")
      continue;
    for (std::size_t i = 2; i < words.size(); ++i)
      for (std::string_view d : split(words[i], ':'))
        if (!d.empty() && d[0] == '/') dirs.emplace_back(d);
  }
  return dirs;
}

}  // namespace cudnn_compat
