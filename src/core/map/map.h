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

// One place of an installed release: a directory and the module that adds it. A [[cudnn]] table
// whose lib or module is a list (one release installed twice, as an EasyBuild and a Spack module)
// reads as one Installed per place, in order; every place after the table's first is `joined`.
struct Installed {
  Version version;
  std::string lib;
  std::optional<Version> cuda;
  std::string module;
  SourcePos pos;
  bool joined = false;  // a further place of the previous entry's release, in the same table
  // Whether the shim, resolve and the advice may hand this place out to a process that did not
  // choose it (`hand_out` in the map; false by default for a hidden module, the way a site
  // withdraws a build). A process whose loader takes it anyway keeps it when it fits.
  bool hand_out = true;
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
// the map lists a release in one table (map validate calls a repeat an error); places joined in
// one table are no repeat.
std::vector<std::pair<std::size_t, std::size_t>> repeated_releases(
    const std::vector<Installed> &cudnn);
// The places whose module an earlier place lists for another release (version or CUDA), as
// {index, earlier index}: the hooks would advise loading the module that is loaded (an error).
std::vector<std::pair<std::size_t, std::size_t>> modules_on_two_releases(
    const std::vector<Installed> &cudnn);
// Every place of a release after the first place found, moved beside it and joined to it: one
// table per release (what scan writes when a release is installed twice).
void group_releases(std::vector<Installed> &cudnn);
// How many releases the map lists: its places, less those joined to the place before them.
std::size_t release_count(const Map &map);

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
  friend bool operator==(const FileStamp &, const FileStamp &) = default;
};
std::optional<FileStamp> stamp_file(const std::string &path);  // nullopt: missing or not a file
std::string map_cache_path(const std::string &map_path);
std::string format_map_cache(const Map &map, const std::vector<Diagnostic> &warnings,
                             const FileStamp &stamp);  // pure
// nullopt unless the text is a cache its writer produced for a map with this stamp (pure).
std::optional<MapLoad> parse_map_cache(std::string_view text, const std::string &map_path,
                                       const FileStamp &stamp);
std::optional<MapLoad> read_map_cache(const std::string &map_path, const FileStamp &stamp);
// A file derived from the map at `map`'s stamp, read only under the racy-clean and owner rules.
std::optional<std::string> read_derived_file(const std::string &path, const FileStamp &map);
// Writes the cache of a valid map atomically, stamped with settle_map_stamp's stamp; empty, or why
// not.
std::string write_map_cache(const MapLoad &load, const FileStamp &stamp);

// ---------------------------------------------------------------------------------------------
// map_merge.cc: `scan --merge` - what a scan found, folded into the admin's map.

struct MergeReport {
  std::vector<std::string> added, changed, dropped;  // one line each, for people
  std::vector<std::string> gone;      // kept, though its module left the module tree (no --prune)
  std::vector<std::string> left_out;  // found, but another place of a release the map lists
};
struct MergeIo {  // what only the file system knows, injected
  std::function<bool(const std::string &lib)> holds_cudnn;
  std::function<std::string(const std::string &lib)> canonical;  // symlinks resolved
  std::function<bool(const std::string &module)> in_tree;  // empty when no module system was asked
  bool prune = false;  // drop the entries whose module left the tree
};
// Keeps old's policy, [[require]] rules and every entry the scan did not find whose lib still
// holds cuDNN; updates the entries it found again (the same directory, symlinks resolved; a place
// the old map or the scan withholds is withheld) and appends the new ones. A new place of a release
// the map already lists is left out: the admin's map says where that release lives (a place removed
// by hand is not put back).
Map merge_scan(const Map &old, const std::vector<Installed> &scanned, const MergeIo &io,
               MergeReport &report);
// Every place whose module an earlier place lists for another release, removed and reported one
// line each: scan never writes a map that map validate rejects.
void leave_out_module_conflicts(std::vector<Installed> &cudnn, std::vector<std::string> &left_out);

}  // namespace cudnn_compat
