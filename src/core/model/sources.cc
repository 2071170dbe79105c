// Where an installed cuDNN came from: the names of the sources and the wheel's directory shape.
#include "model.h"

#include "shim_text.h"

#include <array>
#include <utility>

namespace cudnn_compat {
namespace {

constexpr std::array<std::pair<Source, std::string_view>, 5> kNames = {{
    {Source::module, "module"},
    {Source::wheel, "wheel"},
    {Source::conda, "conda"},
    {Source::system, "system"},
    {Source::user, "user"},
}};

}  // namespace

std::string_view to_string(Source s) {
  for (const auto &[source, name] : kNames)
    if (source == s) return name;
  return "user";
}

std::optional<Source> parse_source(std::string_view name) {
  for (const auto &[source, text] : kNames)
    if (text == name) return source;
  return std::nullopt;
}

bool is_wheel_dir(std::string_view dir) {
  return is_wheel_cudnn_dir(dir.data(), long(dir.size())) != 0;
}

bool is_system_install(const std::string &dir) {
  return is_system_dir(dir.c_str()) != 0;
}

}  // namespace cudnn_compat
