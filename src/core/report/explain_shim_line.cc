// explain on the shim's own line ("cudnn-compat: libcudnn.so.6: needs 6.0 from ..., but ..."),
// which a user pastes back: read by what it says of the need and the load, not by the general
// reader, which took the first release of its "installed:" list for the one found (helper 92).
#include "explain_read.h"

namespace cudnn_compat::explain {

std::optional<Finding> read_shim_line(std::string_view line) {
  const std::optional<std::string_view> rest = after(line, "cudnn-compat: ");
  if (!rest) return std::nullopt;
  const std::size_t colon = rest->find(": needs ");
  if (colon == std::string_view::npos) return std::nullopt;
  const std::string name(rest->substr(0, colon));
  if (!parse_library_name(name)) return std::nullopt;
  const std::string_view tail = rest->substr(colon + 8);
  const std::optional<Version> need = version_of(token(tail));
  const std::optional<std::string_view> but = after(tail, ", but ");
  if (!need || !but) return std::nullopt;
  Finding f = found(FindingKind::version_mismatch, "",
                    "the cudnn-compat shim's own line: it kept the ordinary load");
  f.library = name;
  f.built_with = need;  // CUDNN_COMPAT_REQUIRE is the release the program was built with
  if (but->starts_with("the loader finds no ")) {
    f.kind = FindingKind::library_not_found;
  } else if (after(*but, " does not fit")) {
    f.runtime = version_of(token(*but));
  }
  return f;
}

}  // namespace cudnn_compat::explain
