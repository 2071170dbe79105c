// The site's version map: its schema, parser and printer, its trust check, its cache and the
// merge of a scan into it. Uses the model; reads and writes only the map and its own cache.
#pragma once

#include "model.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cudnn_compat {

// map.cc: the site's version map, schema 1 (DESIGN.md).

struct SourcePos {
  int line = 0;  // 1-based; 0 when unknown
  int column = 0;
};

struct Installed {  // one [[cudnn]] table
  Version version;
  std::string lib;
  std::optional<Version> cuda;
  std::string module;
  SourcePos pos;
};

struct RequireRule {  // one [[require]] table
  std::string match;
  Version cudnn;
  std::optional<Version> cuda;
  SourcePos pos;
};

enum class Prefer { newest, oldest };

// What the module-system hooks do when a loaded cuDNN module does not fit a loaded application.
enum class OnMismatch { warn, error };

struct Policy {
  Rule rule = Rule::nvidia;
  Prefer prefer = Prefer::newest;
  OnMismatch on_module_mismatch = OnMismatch::warn;
};

struct Map {
  std::string path;
  int schema = 1;
  Policy policy;
  std::vector<Installed> cudnn;
  std::vector<RequireRule> require;
};

enum class Severity { error, warning };

struct Diagnostic {
  Severity severity = Severity::error;
  std::string file;
  SourcePos pos;
  std::string message;
};
std::string to_string(const Diagnostic &d);  // "map.toml:3:11: error: ..."

struct MapLoad {
  std::optional<Map> map;  // absent when any diagnostic is an error
  std::vector<Diagnostic> diagnostics;
};

MapLoad parse_map(std::string_view text, const std::string &path);  // pure
MapLoad load_map(const std::string &path);       // the cache when it is current, else read_map_file
MapLoad read_map_file(const std::string &path);  // reads and parses the TOML itself
// Only an absolute lib is ever searched or probed: a relative one would run code from the cwd.
inline bool is_absolute_lib(const Installed &e) {
  return e.lib.starts_with('/');
}
std::string format_map(const Map &map);  // normalised TOML, comments dropped
// The entries that repeat an earlier one's release (version and CUDA), as {index, earlier index}:
// the map lists a release once (map validate calls a repeat an error).
std::vector<std::pair<std::size_t, std::size_t>> repeated_releases(
    const std::vector<Installed> &cudnn);

// ---------------------------------------------------------------------------------------------
// map_trust.cc: a map anyone but its owner can change, or owned by neither root nor the reader, is
// refused (by load_map and read_map_file: jobs, hooks and `map validate` alike).

struct FileOwner {
  std::uint64_t uid = 0;
  unsigned mode = 0;  // st_mode
};
// Why a file or directory with these owner and mode cannot be trusted by reader (pure).
std::optional<std::string> untrusted_because(const FileOwner &o, std::uint64_t reader);
// Why the map at path (its directory, and the file a link there leads to) is refused; nullopt
// when it may be read or is missing.
std::optional<std::string> map_trust_problem(const std::string &path);

// ---------------------------------------------------------------------------------------------
// map_cache.cc: the parsed map as a line file beside it (`map.toml.cache`), for the hot path.
// load_map() uses it when it matches the map's device, inode, size and mtime; otherwise it parses.

// A file's identity as the caches record it. No device number: it differs between the nodes that
// mount one shared file system, and compute nodes would never use the cache.
struct FileStamp {
  std::uint64_t ino = 0, size = 0, mtime_ns = 0, uid = 0;
};
std::optional<FileStamp> stamp_file(const std::string &path);  // nullopt: missing or not a file
std::string map_cache_path(const std::string &map_path);
std::string format_map_cache(const Map &map, const std::vector<Diagnostic> &warnings,
                             const FileStamp &stamp);  // pure
// nullopt unless the text is a cache its writer produced for a map with this stamp (pure).
std::optional<MapLoad> parse_map_cache(std::string_view text, const std::string &map_path,
                                       const FileStamp &stamp);
std::optional<MapLoad> read_map_cache(const std::string &map_path, const FileStamp &stamp);
// Writes the cache of a valid map atomically, stamped with settle_map_stamp's stamp; empty, or why
// not.
std::string write_map_cache(const MapLoad &load, const FileStamp &stamp);

// ---------------------------------------------------------------------------------------------
// map_merge.cc: `scan --merge` - what a scan found, folded into the admin's map.

struct MergeReport {
  std::vector<std::string> added, changed, dropped;  // one line each, for people
};
struct MergeIo {  // what only the file system knows, injected
  std::function<bool(const std::string &lib)> holds_cudnn;
  std::function<std::string(const std::string &lib)> canonical;  // symlinks resolved
};
// Keeps old's policy, [[require]] rules and every entry the scan did not find whose lib still
// holds cuDNN; updates the entries it found again (the same directory, symlinks resolved) and
// appends the new ones.
Map merge_scan(const Map &old, const std::vector<Installed> &scanned, const MergeIo &io,
               MergeReport &report);

}  // namespace cudnn_compat
