// The data model of cudnn-compat and the entry point of every stage.
//
// One header on purpose (as in mold): the CLI, the shim's engine and the tests all speak these
// plain structs, so the warning at `module load`, the redirect at run time and the answer of
// `cudnn-compat resolve` come from the same code. Each stage lives in the file named after it.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudnn_compat {

// A parse result: the value, or one sentence saying what was expected.
template <class T>
struct Parsed {
  std::optional<T> value;
  std::string error;

  static Parsed fail(std::string why) { return {std::nullopt, std::move(why)}; }
  explicit operator bool() const { return value.has_value(); }
  const T &operator*() const { return *value; }
  const T *operator->() const { return &*value; }
};

// ---------------------------------------------------------------------------------------------
// version.cc: every form a cuDNN or CUDA version takes in the wild.

// A version with as many components as the source carried: `libcudnn.so.5` knows only the major,
// a module `cudnn/5.1` no patch, a release name `8.9.2.26` a build number too. Unknown components
// stay unknown; nothing is guessed.
struct Version {
  int major = 0;
  std::optional<int> minor;
  std::optional<int> patch;
  std::optional<int> build;

  friend bool operator==(const Version &, const Version &) = default;
};

std::string to_string(const Version &v);                      // "5.1.10", "5.1", "5", "8.9.2.26"
int compare(const Version &a, const Version &b);              // unknown components sort first
bool is_prefix_of(const Version &pattern, const Version &v);  // 5.1 is a prefix of 5.1.10
// The same release: major, minor and patch equal (a library reports no build number).
bool same_release(const Version &a, const Version &b);

// cudnnGetVersion()/CUDNN_VERSION: major*1000+minor*100+patch up to 8.x, major*10000+... from 9.
Parsed<Version> parse_cudnn_number(std::string_view digits);
// The integer form of v in its own release's encoding; a missing minor or patch counts as 0.
std::int64_t cudnn_number(const Version &v);
// TensorFlow 2016-2018's "compatibility version": the number with the patch dropped (5103 -> 5100).
std::int64_t tensorflow_compat_number(const Version &v);

// cudnnGetCudartVersion(): major*1000 + minor*10 (12020 -> 12.2).
Parsed<Version> parse_cudart_number(std::string_view digits);

Parsed<Version> parse_dotted(std::string_view text);  // 5.1, 5.1.10, 8.9.2.26, v8.9.7
Parsed<Version> parse_cuda(std::string_view text);    // a CUDA version as people write it: 12, 12.2
Parsed<Version> parse_tuple(std::string_view text);   // PyTorch's (8, 9, 2)

// ---------------------------------------------------------------------------------------------
// names.cc: library file names and module names.

// The cuDNN library a file name denotes: the dispatcher (`sub` empty) or a sub-library
// (`ops_infer`, `graph`, ...), with the version its name carries.
struct LibraryName {
  std::string sub;                 // "" for libcudnn itself
  std::optional<Version> version;  // nullopt for the unversioned libcudnn.so
  bool windows = false;            // cudnn64_8.dll, cudnn_ops64_9.dll

  friend bool operator==(const LibraryName &, const LibraryName &) = default;
};

// Accepts a bare name or a path; only the last component is read.
Parsed<LibraryName> parse_library_name(std::string_view name);
// The dispatcher of one major, libcudnn.so.<major>: what a directory is searched for.
LibraryName main_library(int major);
// The version a file name carries (libcudnn.so.8.9.7 -> 8.9.7), if it is a cuDNN name at all.
std::optional<Version> version_in_name(std::string_view path);
// True for any name parse_library_name accepts; the shim's front end asks this first.
bool is_cudnn_library_name(std::string_view name);
// The sub-libraries a dispatcher of this major loads (FACTS.md section 2); empty before 8.
const std::vector<std::string_view> &sub_libraries(int major);

// A module that provides cuDNN: `cudnn/5.1`, `cuDNN/8.9.2.26-CUDA-12.1.1` (EasyBuild),
// `cudnn/8.9.7.29-12` (Spack), `cudnn/9.1.0.70_cuda12`.
struct ModuleName {
  std::string name;  // the module name as written, "cuDNN/8.9.2.26-CUDA-12.1.1"
  Version cudnn;
  std::optional<Version> cuda;
};
Parsed<ModuleName> parse_module_name(std::string_view text);
// Spack's short hash in a module name (cudnn/8.9.7.29-12-abcdefg): 7 of [a-z0-9], a letter among
// them.
bool is_spack_hash(std::string_view token);

// Any of the forms above, told apart by their shape; an integer that could be either a cuDNN or
// a CUDA number is read as cuDNN only where no cuDNN release could be meant otherwise.
struct Decoded {
  std::string input;
  std::string form;  // "cudnn-number", "dotted", "tuple", "library", "module", "cudart-number"
  Version version;
  std::optional<Version> cuda;
  std::optional<LibraryName> library;
};
Parsed<Decoded> decode(std::string_view text);
Parsed<Decoded> decode_cudart(std::string_view text);

// ---------------------------------------------------------------------------------------------
// rules.cc: how each framework judges a runtime cuDNN against the one it was built with.

enum class Rule {
  nvidia,           // NVIDIA's policy: same major; from 7 on runtime minor >= built minor
  tensorflow_2016,  // 2016-2018: same major.minor ("compatibility version")
  tensorflow_2018,  // 2018-2020: same minor, or from 7 on runtime minor >= built minor
  tensorflow,       // TensorFlow 2.x, XLA: same major, runtime minor >= built minor
  pytorch,          // today: same major; before 7 same minor, else runtime minor >= built minor
  pytorch_2017,     // 2017-2020: v/100 equal
  caffe2,           // equal, or from 7000 on runtime >= built or same major.minor
  jax,              // runtime/100 >= built/100; 9.10.0 only when built with it
  paddle,           // runtime >= built, whole number
  mxnet,            // equal, whole number
  exact,            // every known component equal
};

struct RuleInfo {
  Rule rule;
  std::string_view name;     // as written in maps and on the command line
  std::string_view summary;  // one line for --help and explanations
};
const std::vector<RuleInfo> &all_rules();
std::optional<Rule> parse_rule(std::string_view name);
std::string_view rule_name(Rule r);

struct Verdict {
  bool compatible = false;
  std::string reason;  // one sentence, versions as x.y.z
};
Verdict judge(Rule rule, const Version &runtime, const Version &built_with);
// The releases a rule accepts for a build, in words: "5.1.x", "7.6 or a newer 7.x", "8.9.7".
std::string acceptable_releases(Rule rule, const Version &built_with);

// ---------------------------------------------------------------------------------------------
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
// What only the file system can tell: lib directories that vanished or hold no libcudnn, and
// (an error) a relative lib, which would be read against each job's working directory.
std::vector<Diagnostic> check_map_libraries(const Map &map);
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
// Every place of a release after the first place found, moved beside it and joined to it: one
// table per release (what scan writes when a release is installed twice).
void group_releases(std::vector<Installed> &cudnn);

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

// git's racy-clean rule for every file derived from the map (cache, fits table, decision table):
// a reader trusts one only while the map's stamp matches and the map is older than it. The writer
// first waits until the clock has left the second of the map's mtime, then reads the map again
// from one descriptor and checks that it still says what `parsed` says: an edit after that gets
// a newer mtime. Returns the stamp of what was read, or why not.
Parsed<FileStamp> settle_map_stamp(const Map &parsed);
// The map's cache, fits table and decision table, all from one settled stamp; empty, or why not.
std::string write_job_caches(const MapLoad &load, const std::string &probe_helper);

// ---------------------------------------------------------------------------------------------
// atomic_write.cc

// Replaces path with text in one rename, so a reader sees the old file or the new one, never half.
// A link at path is replaced, never followed. The new file takes the owner, group and mode of the
// regular file at `like` when given, else of the regular file it replaces (else 0644, ours).
// Returns an empty string, or why it failed (the old file is then untouched).
std::string write_file_atomically(const std::string &path, std::string_view text,
                                  const std::string &like = {});
// The same through a link at path: the file the link leads to is replaced, the link stays (a map
// shared by a link keeps serving every name of it).
std::string write_file_through_link(const std::string &path, std::string_view text);
// A copy of from at to, written as above (a backup: a link planted at `to` is replaced), with
// from's owner, group and mode.
std::string copy_file_atomically(const std::string &from, const std::string &to);

// ---------------------------------------------------------------------------------------------
// probe.cc: the version a library reports about itself.

enum class ProbeSource { library, header, filename };
std::string_view to_string(ProbeSource s);

struct Probe {
  std::string file;  // the libcudnn.so.<major> that was probed
  Version version;
  std::optional<Version> cuda;
  ProbeSource source = ProbeSource::library;
  std::string note;  // why a better source was not used, empty when the library answered
};

// What the libraries a scan already loaded answered, by file size: a library byte for byte the
// same as one of them answers the same (one release copied into a directory per module).
struct ProbeMemo {
  std::map<std::uintmax_t, std::vector<Probe>> answered;
};

struct ProbeOptions {
  std::string helper;       // the cudnn-compat-probe executable
  int timeout_ms = 10'000;  // a library that hangs in its constructor is given up on
  std::shared_ptr<ProbeMemo> memo = nullptr;  // set by scan: one load per distinct library file
};

// A file, or a directory holding one main cuDNN library per major. Loads each in a child process
// (a crashing library cannot take the caller down), then falls back to the version header beside
// it, then to the file name.
Parsed<std::vector<Probe>> probe(const std::string &path, const ProbeOptions &options);

// family_path.cc: the LD_LIBRARY_PATH a library in dir is probed with, so that it sees its family
// as the shim hands it over: dir first, then every entry of ld_library_path but those that hold
// another family (pure; the predicate does the I/O).
std::string family_library_path(std::string_view ld_library_path, const std::string &dir,
                                const std::function<bool(const std::string &)> &other_family);
// An entry (not dir itself) holding a versioned cuDNN library of major (of any, when unknown).
bool holds_other_family(const std::string &entry, const std::string &dir, std::optional<int> major);

// ---------------------------------------------------------------------------------------------
// requirement.cc: what a process needs.

struct Need {
  std::optional<Version> cudnn;  // the cuDNN it was built with
  std::optional<int> cuda_major;
  Rule rule = Rule::nvidia;
  std::string source;  // "--require", "CUDNN_COMPAT_REQUIRE", "map.toml:12 (/opt/apps/tf/*)", ...
};

struct NeedInputs {
  std::optional<std::string> require;  // --require, else CUDNN_COMPAT_REQUIRE
  std::string require_source;
  std::optional<std::string> cuda;  // --cuda, else CUDNN_COMPAT_CUDA
  std::string cuda_source;
  std::optional<Rule> rule;           // --rule; else the map's policy
  std::vector<std::string> programs;  // the executable and the library that asks, for [[require]]
  LibraryName requested;
};

// Explicit requirement first, then the map's [[require]] rules, then the version in the name.
Parsed<Need> derive_need(const NeedInputs &in, const Map *map);

// ---------------------------------------------------------------------------------------------
// resolve.cc: which installed release a request gets.

struct Considered {
  std::size_t entry = 0;  // index into Map::cudnn
  bool fits = false;
  std::string why;
};

struct Choice {
  std::vector<std::size_t> ranked;  // the fitting entries (indices into Map::cudnn), best first
  std::vector<Considered> considered;
  std::string reason;  // one sentence either way, about ranked.front()
};

// fit.cc: whether a release of version `release`, built for `cuda` (nullopt: unknown), serves
// need for major: the major first, then the CUDA major (an unknown CUDA cannot be confirmed for
// a CUDA need), then the need's rule. The one fit predicate: every caller decides with it.
enum class Words { yes, no };  // whether a Verdict's reason is wanted (the decision is the same)
Verdict fit(const Need &need, std::optional<int> major, const Version &release,
            const std::optional<Version> &cuda, Words words = Words::yes);
// fit() on what the map says of an entry, the reason telling the admin what the map lacks.
Verdict entry_fits(const Installed &e, const Need &need, std::optional<int> major,
                   Words words = Words::yes);

// The major a request is for: the required version's, else the one in the requested name.
std::optional<int> wanted_major(const Need &need, const LibraryName &requested);
// The fitting entries (indices into Map::cudnn), best first: the decision without the words.
std::vector<std::size_t> rank(const Map &map, const Need &need, const LibraryName &requested);
// rank() with a reason for every entry, for people.
Choice choose(const Map &map, const Need &need, const LibraryName &requested);

// The file in dir that serves a request for `requested` (I/O: reads the directory).
std::optional<std::string> find_library_file(const std::string &dir, const LibraryName &requested,
                                             int major);

// ---------------------------------------------------------------------------------------------
// decision_table.cc: `map.toml.decide`, the engine's own decisions compiled for the shim, which
// looks them up without starting a process (shim/fast_path.c reads it). Only releases whose
// library was probed and agrees with the map are in it; anything it does not settle goes to the
// engine.

struct TableFacts {  // what only the file system and the libraries say, gathered by the writer
  std::vector<std::optional<Probe>> probes;      // per map entry: its libcudnn.so.<major>, probed
  std::vector<std::optional<FileStamp>> files;   // that file's identity when it was probed
  std::optional<FileStamp> ld_cache;             // /etc/ld.so.cache
  std::vector<std::pair<int, std::string>> system;  // per major: ld.so.cache and default dirs' file
};
TableFacts gather_table_facts(const Map &map, const ProbeOptions &options);
std::string format_decision_table(const Map &map, const FileStamp &stamp, const TableFacts &facts);
std::string decision_table_path(const std::string &map_path);
// The libraries a table written at the map's `stamp` knows: file identity -> map entry, whose
// version the library reported when the table was written (pure; empty for another stamp).
struct KnownLibrary {
  std::uint64_t ino = 0, size = 0, mtime_ns = 0;
  std::size_t entry = 0;
};
std::vector<KnownLibrary> table_libraries(std::string_view table, const FileStamp &stamp);
// The table's word for a file instead of a probe: the shim's fast path trusts the same identities,
// so the engine's answer cannot differ from the table's. Only where the map names the CUDA when a
// CUDA is needed (the probe would read the library's own). Pure.
std::optional<Probe> remembered_probe(const std::vector<KnownLibrary> &known, const Map &map,
                                      const std::string &file, const FileStamp &identity,
                                      bool cuda_needed);

// ---------------------------------------------------------------------------------------------
// module_advice.cc: the one decision of which module command fixes a need, in the user's module
// system (pure; the CLI gathers the scene, the hooks pass theirs to module-check).

enum class ModuleSystemKind { unknown, lmod, envmodules };
enum class Toolchain { none, easybuild, spack };

struct LoadedModule {
  std::string name;  // full name: cudnn/5.0
  std::string file;  // its modulefile, "" when not known
};
struct ModuleScene {
  ModuleSystemKind system = ModuleSystemKind::unknown;
  std::vector<LoadedModule> loaded;  // in load order
  std::vector<std::string> ebroots;  // the EBROOT<NAME> variables set (EasyBuild's installations)
  std::string app;                   // the application the advice is for (its module), or ""
};

// A name with a component that starts with '.' (cudnn/.5.1): Lmod and Environment Modules hide it.
bool hidden_module(std::string_view name);
// Whose build a release is: EasyBuild (cuDNN/8.9.2.26-CUDA-12.1.1), Spack (a hash in the name).
Toolchain release_toolchain(const Installed &e);
// Whose build an application module is: its modulefile's tree (Compiler/GCC/12.3.0/, a Spack
// architecture directory), a Spack hash in its name, or its EBROOT<NAME> set.
Toolchain app_toolchain(const ModuleScene &scene, std::string_view module);
// The loaded cuDNN module a fix replaces (of the map, or named as a cuDNN module): the one of
// major when there is one, else the last loaded; "" when none is loaded.
std::string loaded_cudnn_module(const ModuleScene &scene, const Map *map, std::optional<int> major);
// `module swap OLD NEW` (Lmod), `module switch OLD NEW` (Environment Modules), or `module load NEW`
// when old_module is "".
std::string module_command(const ModuleScene &scene, const std::string &old_module,
                           const std::string &module);
// The releases to advise, best first: rank()'s fitting ones that have a module users can see,
// those of the application's toolchain first.
std::vector<std::size_t> advised_releases(const Map &map, const Need &need,
                                          const LibraryName &requested, Toolchain app);

// ---------------------------------------------------------------------------------------------
// module_check.cc: the check the Lmod and Environment Modules hooks run on the loaded set.

struct AppNeed {  // from an application modulefile's cudnn_requires("5.1", {cuda="8"})
  std::string module;  // tensorflow/1.0
  Version cudnn;
  std::optional<int> cuda_major;
};
Parsed<AppNeed> parse_app_need(std::string_view text);  // "tensorflow/1.0=5.1" or "...=8.9,cuda=12"

struct ModuleFinding {
  bool error = false;   // the map's on_module_mismatch = "error"
  std::string message;  // one sentence with both versions, the rule and the module that would fit
};

// Every loaded application whose need a loaded cuDNN module (known to the map by its `module`
// field) does not meet. Empty when all fits, or when no cuDNN module of the map is loaded.
// The advice is the command that works in scene's module system (module_advice.cc).
std::vector<ModuleFinding> check_loaded_modules(const Map &map, const std::vector<AppNeed> &apps,
                                                const ModuleScene &scene);

// The hooks' fast path, `map.toml.fits` beside the map: every map module ("M\tcudnn/5.1"), the
// needs decided in advance ("N\t5.1", "N\t8.9,cuda=12": each release's x.y and full version,
// with and without its CUDA major) and the pairs that fit ("F\tcudnn/5.1\t5.1"). A hook that
// finds its pair there says nothing and starts no process; anything else asks module-check. The
// first line stamps the map's size and mtime (seconds: what Lua and Tcl can read).
std::string format_fits_table(const Map &map, const FileStamp &stamp);  // pure
std::string fits_table_path(const std::string &map_path);
std::string write_fits_table(const MapLoad &load, const FileStamp &stamp);  // empty, or why not

// ---------------------------------------------------------------------------------------------
// modulefiles.cc: modulefiles for the map's releases and for the shim (pure text).

enum class ModuleFormat { lua, tcl };

struct Modulefile {
  std::string name;  // cudnn/5.1 - the entry's `module`, else cudnn/<version>
  std::string path;  // relative to the module tree: cudnn/5.1.lua (Lua) or cudnn/5.1 (Tcl)
  std::string text;
};

std::string cudnn_root(const std::string &lib);  // /opt/cudnn/5.1.10 for /opt/cudnn/5.1.10/lib64
// The CUDA module a release needs: pattern with {cuda} replaced by its CUDA (cuda/{cuda} ->
// cuda/12.2); "" when the map does not say its CUDA or pattern is "".
std::string cuda_module_name(const Installed &e, std::string_view pattern);
// has_include: <root>/include exists (the caller looks), so CPATH is set. cuda_module: the CUDA
// module it depends on where the tree has it (none loaded yet), or "".
Modulefile cudnn_modulefile(const Installed &e, ModuleFormat format, bool has_include,
                            const std::string &cuda_module);
// The `cudnn-compat` module: switches the shim on (LD_AUDIT) and points it at the map.
Modulefile shim_modulefile(const std::string &shim, const std::string &map, ModuleFormat format);
// Whether a modulefile's first lines (head) carry the mark of the files written above.
bool written_by_modulefiles(std::string_view head);

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
// holds cuDNN; updates the entries it found again (the same directory, symlinks resolved) and
// appends the new ones. A new place of a release the map already lists is left out: the admin's
// map says where that release lives (a place removed by hand is not put back).
Map merge_scan(const Map &old, const std::vector<Installed> &scanned, const MergeIo &io,
               MergeReport &report);

// ---------------------------------------------------------------------------------------------
// loader.cc: where glibc's ld.so finds a bare name (I/O: reads ELF files and ld.so.cache).

struct ElfDynamic {
  std::vector<std::string> needed;
  std::string rpath, runpath, soname;
};
Parsed<ElfDynamic> read_elf_dynamic(const std::string &file);
// A colon list with $ORIGIN, $LIB (lib: "lib/x86_64-linux-gnu" on Debian, "lib64" on RHEL) and
// $PLATFORM expanded; an empty entry is ".".
std::vector<std::string> expand_search_path(std::string_view list, const std::string &origin,
                                            std::string_view lib = "lib/x86_64-linux-gnu");
// The glibc-hwcaps subdirectories ld.so searches on this CPU, best first ("x86-64-v3", ...).
std::vector<std::string> glibc_hwcaps_subdirs();
// What ld.so.cache bytes (new, old or compat layout) say name is, preferring the entry from the
// first of hwcaps that has one (pure).
std::optional<std::string> ld_cache_find(std::string_view file, std::string_view name,
                                         const std::vector<std::string> &hwcaps);
std::optional<std::string> ld_cache_lookup(
    const std::string &name, const std::string &cache = "/etc/ld.so.cache",
    const std::vector<std::string> &hwcaps = glibc_hwcaps_subdirs());
// The default directories of a glibc whose loader lives in loader_dir (pure), and of this one.
std::vector<std::string> default_directories(std::string_view loader_dir);
std::vector<std::string> loader_default_dirs();

struct SearchStep {
  std::string dir;   // for the ld.so.cache step, the cache file
  std::string from;  // "LD_LIBRARY_PATH", "RUNPATH of /x/libfoo.so", "ld.so.cache", ...
};
struct LoaderContext {
  std::string requester;   // the object that asks (its RUNPATH/RPATH count), or ""
  std::string executable;  // the main program (its RPATH is inherited)
  std::string ld_library_path;
  bool secure = false;  // setuid: LD_LIBRARY_PATH is ignored
  std::string ld_cache = "/etc/ld.so.cache";
  std::vector<std::string> hwcaps = glibc_hwcaps_subdirs();
  std::vector<std::string> default_dirs = loader_default_dirs();
  // The directories before ld.so.cache as the loader itself lists them for the requester (the
  // shim passes them, shim/protocol.h); when set, RPATH, LD_LIBRARY_PATH and RUNPATH are not
  // read from the files and the environment.
  std::optional<std::vector<SearchStep>> before_cache;
};
// In the loader's order: RPATH (without RUNPATH), LD_LIBRARY_PATH, RUNPATH, cache, defaults;
// loader_search tries each directory's glibc-hwcaps subdirectories (hwcaps) before it.
std::vector<SearchStep> loader_search_path(const LoaderContext &in);
struct LoaderHit {
  std::string path;
  std::string from;
};
std::optional<LoaderHit> loader_search(const std::string &name, const LoaderContext &in);
// A directory holding a main cuDNN library (libcudnn.so.<N>) itself.
bool dir_holds_cudnn(const std::string &dir);

// ---------------------------------------------------------------------------------------------
// select.cc: the shim's decision for one request of a cuDNN main library.

struct SelectIo {  // the edges, injected so that the decision itself stays testable
  std::function<std::optional<Probe>(const std::string &file)> probe;  // nullopt: did not load
  std::function<std::optional<std::string>(const std::string &dir, const LibraryName &requested,
                                           int major)>
      find_file;
};

struct SelectInputs {
  std::string name;  // as the process asked for it
  LibraryName requested;
  Need need;
  std::optional<LoaderHit> loader;  // what the loader would take without the shim
  const Map *map = nullptr;
  std::string map_problem;  // why there is no map, when map is null
  bool debug = false;
};

struct Selection {
  std::optional<std::string> use;  // load this file instead; nullopt keeps the ordinary load
  std::vector<std::string> say;    // lines for stderr: at most one unless debugging
};

Selection select_library(const SelectInputs &in, const SelectIo &io);
// Whether a library that reports p serves need for major (its version, and its CUDA when both are
// known), and why not.
Verdict serves(const Need &need, std::optional<int> major, const Probe &p);
// The version a library reports itself, by loading it in a child (probe); nullopt when it does not
// load - a header or a file name is no answer here.
std::optional<Probe> probe_library(const std::string &file, const ProbeOptions &options);

// ---------------------------------------------------------------------------------------------
// explain*.cc: the messages frameworks, cuDNN, build tools and the loader print, read back (pure):
// family readers for the wordings tools are known to print, a general reader beneath them.

enum class FindingKind {
  version_mismatch,
  library_not_found,
  sublibrary_mismatch,
  dependency_not_found,
  outdated,
  unknown
};
std::string_view to_string(FindingKind k);

struct Finding {
  bool recognized = false;
  FindingKind kind = FindingKind::unknown;
  std::string framework;                      // tensorflow, pytorch, ..., or "" for cuDNN/loader
  std::optional<Version> runtime, built_with;  // as the message gives them
  std::string library;                         // the cuDNN file concerned, or ""
  std::string missing;                         // a missing dependency of it, or ""
  std::optional<Rule> rule;                    // whose rule refused, when the message says
  std::string note;                            // what else the message or its context tells
  std::size_t line = 0;                        // 1-based, in the text read
  std::string text;                            // that line
  std::string status;                          // the CUDNN_STATUS_* code the message names, or ""
  std::optional<Version> required;             // a minimum or expected release it names
  std::optional<int> windows_error;            // 126 (not found) or 127 (procedure missing)
  bool build_time = false;                     // configure, CMake, compiler or linker, not a run
};

// Every cuDNN-related error in a message or a whole job log, in order; noise is skipped.
std::vector<Finding> find_errors(std::string_view log);

// find_errors() plus what could not be read whole: "line 7 is 9000000 bytes; read the first
// 8192". Lines end at \n, \r\n or a bare \r (progress bars).
struct ExplainScan {
  std::vector<Finding> findings;
  std::vector<std::string> cut;
};
ExplainScan scan_log(std::string_view log);

// advice.cc: what a finding means and what to do, drawn from the map when there is one (pure).
struct Advice {
  std::string what;                // what happened, versions as x.y.z
  std::string rule;                // which rule refused, and whether NVIDIA's policy agrees
  std::optional<bool> compatible;  // by the framework's own rule, when versions are known
  std::optional<bool> nvidia_compatible;  // by NVIDIA's stated policy, when versions are known
  std::vector<std::string> fixes;  // commands: `module swap cudnn/5.0 cudnn/5.1   # 5.1.10`, ...
};
// The module commands are those of the user's module system (module_advice.cc).
Advice advise(const Finding &f, const Map *map, const ModuleScene &scene = {});
// Module commands for the map's releases of major that serve need, best first (swap or switch
// when a cuDNN module is loaded in scene, else load); else the shim line when only releases
// without a visible module fit; else nothing.
std::vector<std::string> installed_fixes(const Map *map, const Need &need, int major,
                                         const ModuleScene &scene);

// ---------------------------------------------------------------------------------------------
// doctor.cc: the environment as the loader will see it, judged (pure: the CLI gathers the facts).

struct PathDir {  // a directory on LD_LIBRARY_PATH that holds cuDNN
  std::string dir;
  std::vector<Probe> probes;  // one per main library (major) in it
};
struct Resolution {  // what `libcudnn.so.<major>` becomes in this environment
  int major = 0;
  std::optional<LoaderHit> hit;
  std::optional<Probe> probe;  // of hit, when it loads
  // Sub-libraries the dispatcher would get from somewhere else than its own directory.
  std::vector<std::pair<std::string, LoaderHit>> foreign_subs;
};
struct DoctorFacts {
  std::vector<std::string> modules;  // loaded, in order
  ModuleScene scene;                 // the same, for the fixes' module commands
  std::vector<PathDir> path;
  std::vector<Resolution> resolved;
  std::optional<int> cuda_major;  // of the loaded CUDA (module or CUDA_HOME)
  std::string cuda_from;
  std::string shim;               // "LD_AUDIT", "LD_PRELOAD" or "" when off
  std::string shim_choice;        // what the shim would load for the required major, or ""
  std::optional<Version> shim_choice_cuda;  // the CUDA that library was built for, when known
  std::optional<Need> need;       // --require, CUDNN_COMPAT_REQUIRE or a [[require]] rule
  std::string program;            // --for
  std::vector<std::string> program_needs;  // its DT_NEEDED cuDNN libraries
};
enum class Severity3 { ok, warning, problem };
struct DoctorFinding {
  Severity3 severity = Severity3::ok;
  std::string what;
  std::vector<std::string> fixes;
};
std::vector<DoctorFinding> diagnose(const DoctorFacts &facts, const Map *map);

// ---------------------------------------------------------------------------------------------
// environment.cc: the edges where the environment is read.

std::optional<std::string> env(const char *name);  // secure_getenv; empty counts as unset
// The prefix a program in dir belongs to: dir without its bin/ or lib/cudnn-compat/ (pure).
std::optional<std::string> prefix_of_program_dir(std::string_view dir);
// The running program's prefix, from /proc/self/exe: an installed tree may be moved.
std::optional<std::string> install_prefix();
// $CUDNN_COMPAT_MAP, <prefix>/etc/cudnn-compat/map.toml, /etc/cudnn-compat/map.toml.
std::optional<std::string> find_map_path();
std::vector<std::string> map_search_path();
// The user's module system as the environment shows it: which system, the loaded modules and their
// files (LOADEDMODULES, _LMFILES_), EBROOT* variables, the first application in CUDNN_COMPAT_NEEDS.
ModuleScene module_scene_from_environment();

}  // namespace cudnn_compat
