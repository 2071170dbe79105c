// Loader traces: LD_DEBUG=libs ("calling init: /x/libcudnn_ops.so.9", "file=/x/libcudnn.so.8 [0];
// generating link map"), ldd ("libcudnn.so.8 => /x/libcudnn.so.8 (0x...)") and /proc/PID/maps
// name every cuDNN file a process mapped. One family from two directories is the mixed family
// cuDNN itself refuses (CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH), whether or not the log goes
// on to show that error; the finding names the file that came from elsewhere and both places.
#include "explain_read.h"
#include "text.h"

#include <algorithm>
#include <map>
#include <set>

namespace cudnn_compat::explain {
namespace {

// The absolute path that starts at `at`, up to a space, a parenthesis or a quote.
std::string_view path_at(std::string_view s, std::size_t at) {
  std::size_t end = at;
  while (end < s.size() && s[end] != ' ' && s[end] != '\t' && s[end] != '(' && s[end] != '"' &&
         s[end] != '\'' && s[end] != ',' && s[end] != ']')
    ++end;
  return s.substr(at, end - at);
}

// /lib and /usr/lib are one directory on merged-/usr systems; a trailing slash is no difference.
std::string same_place(std::string_view dir) {
  std::string d(dir);
  while (d.size() > 1 && d.back() == '/') d.pop_back();
  if (d.starts_with("/lib/") || d == "/lib" || d.starts_with("/lib64")) d = "/usr" + d;
  return d;
}

}  // namespace

std::optional<TraceHit> trace_hit(std::string_view line, std::size_t number) {
  // A path tried (maybe absent), or ldconfig's cache listing what is installed, not loaded.
  if (has(line, "trying file=") || has(line, "(libc6")) return std::nullopt;
  std::size_t at = std::string_view::npos;
  for (std::string_view marker : {"calling init: ", "file=", "=> "})
    if (const std::size_t m = line.find(marker); m != std::string_view::npos) {
      at = m + marker.size();
      break;
    }
  // /proc/PID/maps: "7f3c2a000000-7f3c2a400000 r-xp 00000000 08:01 1234 /x/libcudnn.so.8".
  if (at == std::string_view::npos && line.size() > 20 && line.find('-') < 17 &&
      has(line.substr(0, 40), " r-xp ")) {
    at = line.find(" /");
    if (at != std::string_view::npos) ++at;
  }
  if (at == std::string_view::npos || at >= line.size() || line[at] != '/') return std::nullopt;
  const std::string_view path = path_at(line, at);
  const std::string_view base = basename_of(path);
  const Parsed<LibraryName> name = parse_library_name(base);
  if (!name || !name->version || base.find(".so") == std::string_view::npos) return std::nullopt;
  TraceHit hit;
  hit.dir = same_place(path.substr(0, path.size() - base.size()));
  hit.file = std::string(base);
  hit.major = name->version->major;
  hit.line = number;
  return hit;
}

std::optional<Finding> mixed_family(const std::vector<TraceHit> &hits) {
  // Per major, how many files each directory gave (a file named twice counts once).
  std::map<int, std::map<std::string, int>> dirs;
  std::set<std::string> seen;
  for (const TraceHit &h : hits)
    if (seen.insert(h.dir + '/' + h.file).second) ++dirs[h.major][h.dir];
  for (const auto &family : dirs) {
    const int major = family.first;
    const std::map<std::string, int> &by_dir = family.second;
    if (by_dir.size() < 2) continue;
    // The family's own place: where most of it came from (the dispatcher's, on a tie).
    std::string home;
    int most = 0;
    for (const auto &place : by_dir) {
      const std::string &dir = place.first;
      const bool dispatcher = std::any_of(hits.begin(), hits.end(), [&](const TraceHit &h) {
        return h.dir == dir && h.file.starts_with("libcudnn.so");
      });
      if (place.second > most || (place.second == most && dispatcher))
        home = dir, most = place.second;
    }
    const auto odd = std::find_if(hits.begin(), hits.end(), [&](const TraceHit &h) {
      return h.major == major && h.dir != home;
    });
    Finding f = found(FindingKind::sublibrary_mismatch);
    f.library = odd->file;
    f.line = odd->line;
    f.note = "the loader mapped " + std::to_string(most) + " cuDNN " + std::to_string(major) +
             " libraries from " + home + " but " + odd->file + " from " + odd->dir +
             ": one process, two copies of cuDNN";
    return f;
  }
  return std::nullopt;
}

}  // namespace cudnn_compat::explain
