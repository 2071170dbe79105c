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
// How the warning of a key this version does not know begins: no writer of the map carries such a
// key over (scan --merge refuses to drop one).
inline constexpr std::string_view kUnknownKey = "unknown key '";

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
  std::optional<Source> source = std::nullopt;  // where it came from, as the map's `source` says
  // retire_after = "YYYY-MM-DD" (issue 21): from that day on (00:00 local time) the shim hands the
  // release over no more; "" when the map sets no date. `retired`: that day has come, as the
  // clock said when the map was loaded (load_map, read_map_file).
  std::string retire_after = {};
  bool retired = false;
  // Whose word its version is: "" the map's; else the wheel's METADATA or the conda-meta record
  // it was read from (a place of the active Python environment that the map does not list).
  std::string claimed_in = {};
  ReleaseCode code = {};  // the device code its libraries carry, when read (map validate, engine)
  // The modules to load before its module can be (`load_first`: an Lmod hierarchy's parents, e.g.
  // gcc/12.2.0 whose load puts Compiler/gcc/12.2.0 on MODULEPATH); empty when it is reachable.
  std::vector<std::string> load_first = {};
  // The map itself says hand_out for this place: the admin's word, which scan --merge keeps over
  // what the scan would default to (a hidden module handed out after all stays handed out).
  bool hand_out_written = false;
};
// Where a place came from: its `source`, else the module's when it has one, a wheel's by its
// directory's shape, else the system's.
Source source_of(const Installed &e);

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
  // The admins' group: a map, its directory and its tables that this group may write are trusted
  // (docs/contract.md, "Trust"). Empty: none.
  std::string trusted_group;
};

// [usage] (issue 21, docs/usage.md): whether the shim records each process's first cuDNN load.
enum class UsageMode { off, record, report_only };
struct UsageSettings {
  bool given = false;  // the map has a [usage] table
  UsageMode mode = UsageMode::off;
  std::string to = "syslog";  // "syslog", or a spool directory (an absolute path)
  double sample = 1.0;        // the fraction of processes that record
};

// One [[node]] table: what the nodes of this name have, for login and build nodes whose own facts
// cannot be learnt (no GPU) or should not count (docs/gpu.md). The values are the overrides' own
// grammar (CUDNN_COMPAT_GPU_ARCH, CUDNN_COMPAT_DRIVER_CUDA), checked where they are used.
struct NodeEntry {
  std::string name;         // a glob of * and ? on $SLURMD_NODENAME, else the host name
  std::string gpu_arch;     // "7.0" or "7.0,8.0"; "" not given
  std::string driver_cuda;  // "12.2"; "" not given
  SourcePos pos;
};

struct Map {
  std::string path;
  Policy policy;
  UsageSettings usage;
  std::vector<Installed> cudnn;
  std::vector<RequireRule> require;
  std::vector<NodeEntry> nodes = {};
};

enum class Severity { error, warning };

struct Diagnostic {
  Severity severity = Severity::error;
  std::string file;
  SourcePos pos;
  std::string message;
};
std::string to_string(const Diagnostic &d);  // "map.toml:3:11: error: ..."
std::string octal(unsigned mode);            // a file's permission bits as chmod takes them: "1733"
// Why a map that did not load is refused, in one line: its first error (a warning before it is
// no reason: "unknown key 'verison' ... is ignored" read as harmless where the entry then lacked
// its version), else "PATH is invalid".
std::string why_invalid(const std::vector<Diagnostic> &diagnostics, const std::string &path);

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
// map_usage.cc: the map's word on usage records and on retiring releases (issue 21).

std::string_view to_string(UsageMode m);  // "off", "record", "report-only"
std::optional<UsageMode> parse_usage_mode(std::string_view word);
// The settings as the shim reads them, "usage MODE PPM TO" with fields split by sep (a tab in the
// decision table, a space in the engine's answer): shim/shared/usage_record.h.
std::string usage_settings_text(const UsageSettings &u, char sep);
// 00:00 local time of a date "YYYY-MM-DD" in seconds since the epoch; nullopt unless it is one.
std::optional<std::int64_t> day_start(std::string_view date);
// Marks every place whose retire_after day has begun by `now` (seconds since the epoch) retired.
void mark_retired(Map &map, std::int64_t now);

// ---------------------------------------------------------------------------------------------
// map_trust.cc: a map that others than root, its reader and the map's trusted group can change is
// refused (by load_map and read_map_file: jobs, hooks and `map validate` alike). The rule is the
// contract's (docs/contract.md), in C in shim/site_files.c; this file words its findings.

struct FileOwner {
  std::uint64_t uid = 0;
  unsigned mode = 0;  // st_mode
  std::uint64_t gid = 0;
};
// The id of the group named name on this machine; nullopt when there is none.
std::optional<std::int64_t> group_id(const std::string &name);
// The trusted group's id for map (-1: none named, or no such group here).
std::int64_t trusted_gid(const Map &map);
// The name of group gid ("gid N" when it has none here; "" for -1).
std::string group_name(std::int64_t gid);
// Why a file or directory with these owner and mode cannot be trusted by reader, with trusted
// group gid (-1: none) whose name is group (pure). Worded for the reader: the command to run
// when the reader owns it, else whom to tell.
std::optional<std::string> untrusted_because(const FileOwner &o, std::uint64_t reader,
                                             std::int64_t gid = -1, const std::string &group = "");
// Why the map at path (its directory, and the file a link there leads to) is refused under the
// trusted group of map (or none); nullopt when it may be read or is missing.
std::optional<std::string> map_trust_problem(const std::string &path, const Map *map = nullptr);

// ---------------------------------------------------------------------------------------------
// map_tables.cc: the map's derived tables (docs/contract.md): the parsed map (`map.toml.cache`),
// the hooks' fits and misfits tables and the shim's decision table, each stamped with the map it
// was made from and ended by the end line. Read only through read_table, the contract's rule.

// A file's identity as the tables record it. No device number: it differs between the nodes that
// mount one shared file system, and compute nodes would never use the tables. For the map, its
// stamp also carries its content's CRC-32 (a copy of the map keeps it) and the trusted group's id.
struct FileStamp {
  std::uint64_t ino = 0, size = 0, mtime_ns = 0, uid = 0;
  std::uint32_t crc = 0;
  std::int64_t gid = -1;
  friend bool operator==(const FileStamp &, const FileStamp &) = default;
};
std::optional<FileStamp> stamp_file(const std::string &path);  // nullopt: missing or not a file

enum class TableKind { cache, fits, misfits, decide };
constexpr TableKind kAllTables[] = {TableKind::cache, TableKind::fits, TableKind::misfits,
                                    TableKind::decide};
std::string_view table_suffix(TableKind kind);  // ".cache", ...
std::string_view table_format(TableKind kind);  // its first line's format
// Where the table of the map at map_path lives: beside it, or in dir when one is given.
std::string table_path(const std::string &map_path, TableKind kind, const std::string &dir = "");
// A table's first line: its format and the map's stamp (pure).
std::string stamp_line(TableKind kind, const FileStamp &map);
// The last line of every table.
std::string_view table_end();
// What a table's first line says of the map it was made from; nullopt when it is not a stamp of
// this kind's format (pure).
std::optional<FileStamp> parse_stamp(std::string_view text, TableKind kind);

struct TableRead {
  std::optional<std::string> text;  // the whole table, when believed
  int verdict = 0;                  // site_files.h's enum site_verdict
  std::string why;                  // for people, when not believed
};
// The table of kind beside the map at map_path, read under the contract's rule.
TableRead read_table(const std::string &map_path, TableKind kind);

// ---------------------------------------------------------------------------------------------
// map_cache.cc: the parsed map as a line file beside it (`map.toml.cache`), for the hot path.
// load_map() uses it when read_table believes it; otherwise it parses the map.

std::string format_map_cache(const Map &map, const std::vector<Diagnostic> &warnings,
                             const FileStamp &stamp);  // pure
// nullopt unless the text is a whole cache as its writer produced it (the stamp is read_table's
// to judge) (pure).
std::optional<MapLoad> parse_map_cache(std::string_view text, const std::string &map_path);
std::optional<MapLoad> read_map_cache(const std::string &map_path);

// ---------------------------------------------------------------------------------------------
// map_merge.cc: `scan --merge` - what a scan found, folded into the admin's map.

struct MergeReport {
  std::vector<std::string> added, changed, dropped;  // one line each, for people
  std::vector<std::string> gone;        // kept, though its module left the module tree (no --prune)
  std::vector<std::string> unreadable;  // kept, its module in the tree but no cuDNN in its lib now
  std::vector<std::string> left_out;    // found, but another place of a release the map lists
};
struct MergeIo {  // what only the file system knows, injected
  std::function<bool(const std::string &lib)> holds_cudnn;
  std::function<std::string(const std::string &lib)> canonical;  // symlinks resolved
  std::function<bool(const std::string &module)> in_tree;  // empty when no module system was asked
  bool prune = false;  // drop the entries whose module left the tree
};
// Keeps old's policy, [[require]] rules and every entry the scan did not find whose lib still
// holds cuDNN or whose module is still in the module tree; updates the entries it found again (the
// same directory, symlinks resolved; a place the old map withholds is withheld, and so is one the
// scan withholds unless the map says hand_out = true itself) and appends the new ones. A new place
// of a release the map already lists is left out: the admin's map says where that release lives (a
// place removed by hand is not put back).
Map merge_scan(const Map &old, const std::vector<Installed> &scanned, const MergeIo &io,
               MergeReport &report);
// scan --merge: the comments of the map merged into (old_text), each put back with the line of the
// merged map (new_text) that says what its line said, in the same table (full-line comments above
// it, its own after it); `lost` when some have no such line (the entry or the key is gone, or its
// value changed). Pure.
struct CarriedComments {
  std::string text;
  bool lost = false;
};
CarriedComments carry_comments(std::string_view old_text, std::string_view new_text);
// Every place whose module an earlier place lists for another release, removed and reported one
// line each: scan never writes a map that map validate rejects.
void leave_out_module_conflicts(std::vector<Installed> &cudnn, std::vector<std::string> &left_out);

}  // namespace cudnn_compat
