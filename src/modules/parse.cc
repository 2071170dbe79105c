// Reading what Lmod and Environment Modules print (pure).
#include "modules.h"
#include "site_contract.h"
#include "text.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>

namespace cudnn_compat {

namespace {
std::string first_component(std::string_view full_name) {
  return lower(full_name.substr(0, full_name.find('/')));
}
}  // namespace

bool is_cudnn_module(std::string_view full_name) {
  const std::string name = first_component(full_name);
  // The contract's rule (docs/contract.md), which the hooks apply too. cudnn-compat's own module
  // switches the shim on; it provides no cuDNN.
  return name.find(SITE_CUDNN_WORD) != std::string::npos && name != SITE_OWN_MODULE;
}

bool may_carry_cudnn(std::string_view full_name) {
  return is_cudnn_module(full_name) || first_component(full_name).starts_with("cuda");
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
      ModuleLibs lib{m["fullName"].get<std::string>(), file, {}, m.value("hidden", false), {}};
      if (!may_carry_cudnn(lib.name)) continue;
      if (m.contains("lpathA") && m["lpathA"].is_object())
        for (const auto &[dir, _] : m["lpathA"].items()) lib.lib_dirs.push_back(dir);
      // [["gcc/12.2.0"], ["gcc/12.2.0", "openmpi/4.1.5"]]: each a way to reach it; the first.
      if (m.contains("parentAA") && m["parentAA"].is_array() && !m["parentAA"].empty() &&
          m["parentAA"][0].is_array())
        for (const nlohmann::json &p : m["parentAA"][0])
          if (p.is_string() && p.get<std::string>().find_first_of(" \t\n") == std::string::npos)
            lib.load_first.push_back(p.get<std::string>());
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
      if (!m.is_object() || m.value("type", "") != "modulefile" || !may_carry_cudnn(name)) continue;
      // Hidden by its name (cudnn/.5.0) or by module-hide in a modulerc (tagged "hidden").
      bool hidden = hidden_module(name);
      if (m.contains("tags") && m["tags"].is_array())
        for (const nlohmann::json &tag : m["tags"]) hidden = hidden || tag == "hidden";
      out.push_back({name, m.value("pathname", ""), {}, hidden, {}});
    }
  }
  std::sort(out.begin(), out.end(), before);
  return {out, {}};
}

namespace {

// The words of one Tcl command as `display` prints it: blanks separate, {...} and "..." group.
std::vector<std::string> tcl_words(std::string_view line) {
  std::vector<std::string> words;
  for (std::size_t i = 0; i < line.size();) {
    if (line[i] == ' ' || line[i] == '\t') {
      ++i;
      continue;
    }
    const char open = line[i], close = open == '{' ? '}' : open == '"' ? '"' : '\0';
    std::size_t end = close ? line.find(close, i + 1) : line.find_first_of(" \t", i);
    if (end == std::string_view::npos) end = line.size();
    words.emplace_back(line.substr(i + (close ? 1 : 0), end - i - (close ? 1 : 0)));
    i = end + (close ? 1 : 0);
  }
  return words;
}

}  // namespace

std::vector<std::string> parse_display_lib_dirs(std::string_view text) {
  std::vector<std::string> dirs;
  for (std::string_view line : split(text, '\n')) {
    // "prepend-path\tLD_LIBRARY_PATH /a:/b"; Spack writes "prepend-path --delim : VAR /a", and
    // modulecmd accepts -d C, --delim=C, --duplicates before the variable.
    const std::vector<std::string> words = tcl_words(line);
    if (words.empty() || (words[0] != "prepend-path" && words[0] != "append-path")) continue;
    std::size_t i = 1;
    std::string delim = ":";
    for (; i < words.size() && words[i].starts_with('-'); ++i) {
      if ((words[i] == "--delim" || words[i] == "-d") && i + 1 < words.size())
        delim = words[++i];
      else if (words[i].starts_with("--delim="))
        delim = words[i].substr(8);
    }
    if (i + 1 >= words.size() || words[i] != "LD_LIBRARY_PATH" || delim.size() != 1) continue;
    for (++i; i < words.size(); ++i)
      for (std::string_view d : split(words[i], delim[0]))
        if (!d.empty() && d[0] == '/') dirs.emplace_back(d);
  }
  return dirs;
}

std::string parse_module_error(std::string_view text) {
  // Environment Modules: "Module ERROR: <why>" then "(file "..." line N)"; Lmod: "Lmod has
  // detected the following error: ..." wrapped over lines up to "Please check the modulefile".
  std::string why;
  bool in_error = false, in_trace = false;
  for (std::string_view line : split(text, '\n')) {
    line = trim(line);
    in_error = in_error || line.starts_with("Module ERROR:") ||
               line.starts_with("Lmod has detected the following error:");
    if (in_error && line.starts_with("Please ")) break;
    if (!in_error || (in_trace && !line.starts_with("(file "))) continue;
    if (line == "while executing") {
      in_trace = true;  // Tcl's trace: only its "(file ... line N)" says where
      continue;
    }
    why += (why.empty() ? "" : " ") + std::string(line);
    if (in_trace) break;
  }
  return why;
}

}  // namespace cudnn_compat
