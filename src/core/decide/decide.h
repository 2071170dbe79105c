// The decisions: what a process needs, which releases fit it and in what order, the shim's
// selection, the module check and the tables compiled from them. Pure: the I/O they need is
// injected (SelectIo) or gathered by the caller (TableFacts). Uses the model and the map.
#pragma once

#include "map.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cudnn_compat {

// ---------------------------------------------------------------------------------------------
// requirement.cc: what a process needs.

// Where a need came from, as a usage record says it (shim/shared/usage_record.h: from).
enum class NeedOrigin { none, asked, pin, rule, name };  // asked: --require or CUDNN_COMPAT_REQUIRE

struct Need {
  std::optional<Version> cudnn;  // the cuDNN it was built with
  std::optional<int> cuda_major;
  Rule rule = Rule::nvidia;
  std::string source;  // "--require", "CUDNN_COMPAT_REQUIRE", "map.toml:12 (/opt/apps/tf/*)", ...
  NeedOrigin origin = NeedOrigin::none;
  std::optional<Version> below = std::nullopt;  // a pin's upper bound (<9.5): from it on, no fit
  std::vector<Need> also = {};  // the other consumers in the process: a release fits them too
  std::optional<NodeFacts> node = {};  // the node it runs on, when known: its GPUs and driver
  std::string cuda_source = {};        // where cuda_major came from: "--cuda", "CUDNN_COMPAT_CUDA"
  // A pin's: what installs the cuDNN it asks for in its own environment, where no installed
  // release fits ("pip install 'nvidia-cudnn-cu12==9.30.0.1'"); "" for any other need.
  std::string install = {};
};

struct NeedInputs {
  std::optional<std::string> require;  // --require, else CUDNN_COMPAT_REQUIRE
  std::string require_source;
  std::optional<std::string> cuda;  // --cuda, else CUDNN_COMPAT_CUDA
  std::string cuda_source;
  std::optional<Rule> rule;           // --rule; else the map's policy
  std::vector<std::string> programs;  // the executable and the library that asks, for [[require]]
  LibraryName requested;
  // What the Python distributions in the process require of cuDNN (pins.cc): the requester's
  // own first, then those of the other consumers loaded beside it.
  std::vector<CudnnPin> pins;
};

// Explicit requirement first, then the frameworks' pins, then the map's [[require]] rules, then
// the version in the name.
Parsed<Need> derive_need(const NeedInputs &in, const Map *map);
// "cuDNN 9.1.0 under rule pytorch (from ...)", "any cuDNN 9": a need in words; with `also`, each.
std::string describe(const Need &need, std::optional<int> major);
// The release to ask the admins for, in words, for need and major: "cuDNN 9.1 or a newer 9.x built
// for CUDA 11 that runs on compute capability 7.0 (...)", "a cuDNN 9 release built for CUDA 11".
std::string release_to_ask_for(const Need &need, int major);
// A need's node in words: " on compute capability 7.0 with a CUDA 12.2 driver (NVML)"; "" when
// nothing is known of it.
std::string node_words(const std::optional<NodeFacts> &node);

// ---------------------------------------------------------------------------------------------
// pins.cc: a framework's pin of cuDNN (its wheel's Requires-Dist, its conda depends) as a need.

// An install command that replaces what is there: pip answers a broken wheel of the pinned version
// "Requirement already satisfied" (helper 109), so "pip install --force-reinstall 'SPEC'".
std::string reinstall(const std::string &install);
// need.install as it must be run in an environment whose places `map` holds: a reinstall where one
// of its kind already meets the need (that install is broken); for conda, with the CUDA named
// where its cudnn meets the spec but is built for another CUDA (conda's spec names none, and it
// answers the plain install "already satisfied"; helper 110).
std::string replacing_install(const Map &map, const Need &need);

// The rule of the framework a distribution or conda package belongs to: torch -> pytorch, jax,
// jaxlib and the JAX CUDA plugins -> jax, tensorflow -> tensorflow, ...; nullopt when unknown.
std::optional<Rule> framework_rule(std::string_view distribution);
// The need a pin states, under its framework's rule (else `fallback`): the lower bound (an exact
// pin's release, >=, ~=, a prefix) is the cuDNN it was built with, an upper bound within the major
// is `below`; the CUDA of the wheel asked for is its CUDA. nullopt when it names no version.
std::optional<Need> need_of_pin(const CudnnPin &pin, Rule fallback);
// The needs of several consumers as one: the first, with the others that differ from it as
// `also`.
Need combined_need(const std::vector<Need> &needs);

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
// With the need's node known, the release must also run there: code for each of its GPUs in every
// library that carries device code (`code`; an empty one is not judged), and a driver that runs
// its CUDA.
Verdict fit(const Need &need, std::optional<int> major, const Version &release,
            const std::optional<Version> &cuda, Words words = Words::yes,
            const ReleaseCode &code = {});
// Why no release can serve a request whose name carries `major` when the requirement is of
// another major ("the program asks for cuDNN 8 by name, which only a cuDNN 8 can serve, not the
// 5.0 required"); nullopt when they agree. fit() refuses every release then.
std::optional<std::string> major_conflict(const Need &need, std::optional<int> major);
// One library's code runs on a GPU of compute capability gpu: a cubin of the same major and an
// equal or lower minor, or PTX of an equal or older architecture (the driver compiles it).
bool code_runs_on(const DeviceCode &code, int gpu);
// A driver that runs CUDA `driver` runs a release built for CUDA `cuda`.
bool driver_runs(const Version &driver, const Version &cuda);
// The known GPU architectures (and those any code names): the decision table's columns.
std::vector<int> known_gpus(const std::vector<const ReleaseCode *> &codes);
// The GPUs among gpus that release e runs on, each alone on a node, by fit() (pure).
std::set<int> gpus_served(const Installed &e, const std::vector<int> &gpus);
// fit() on what the map says of an entry, the reason telling the admin what the map lacks.
Verdict entry_fits(const Installed &e, const Need &need, std::optional<int> major,
                   Words words = Words::yes);

// The major a request is for: the required version's, else the one in the requested name.
std::optional<int> wanted_major(const Need &need, const LibraryName &requested);
// The fitting entries the map hands out (indices into Map::cudnn), best first: the decision
// without the words. A place with hand_out = false is never among them.
std::vector<std::size_t> rank(const Map &map, const Need &need, const LibraryName &requested);
// rank()'s entries, and for a CUDA need those it leaves out only for the CUDA the map names or
// does not name for them: their libraries tell theirs (release_cuda), over the map's word, which a
// caller that probes asks before handing one over.
std::vector<std::size_t> rank_asking_libraries(const Map &map, const Need &need,
                                               const LibraryName &requested);
// The CUDA a release is built for: what its library reports where it tells (cuDNN 6 on), else the
// map's word for it.
std::optional<Version> release_cuda(const Installed &e, const std::optional<Probe> &p);
// Whether probe p is the library's own word (it loaded and said its version), not a header's or a
// file name's guess.
bool library_spoke(const std::optional<Probe> &p);
// Whether the decision table holds entry e as its library p reports it: p loaded, and is of e's
// major (the file was found by it: one of another major is no release of that name, and is left
// to the engine, which passes it over).
bool stands_as_reported(const Installed &e, const std::optional<Probe> &p);
// Why a place whose directory lacks sub-libraries its family names (lacking_subs) is not handed
// over - a place handed over is a directory, and the family comes from there whole - and what
// makes it whole again.
std::string not_whole(const Installed &e, const std::vector<std::string> &lacks);
// An entry as its library reports it where it loaded: its release and CUDA are the library's word
// over the map's (the shim asks the library; the map says where to look). Every reader of a map
// decides on entries through this: the engine, resolve, module-check, the hooks' tables, the
// decision table, the modulefiles written.
Installed as_library_reports(Installed e, const std::optional<Probe> &p);
// Whose word an entry's release is, as a sentence's start: "the map says ", "its conda record
// (conda-meta) says ", "its wheel's METADATA says ".
std::string claimed_by(const Installed &e);
// Why a library is no answer, in a line's words: "FILE does not load (why, when the probe says)",
// or "FILE could not be checked (why)".
std::string no_answer(const std::string &file, const LibraryCheck &c);
// rank() with a reason for every entry, for people.
Choice choose(const Map &map, const Need &need, const LibraryName &requested);
// The places (indices into Map::cudnn) that fit need for major but that the map does not hand out
// (hidden modules): what a "nothing fits" must not hide.
std::vector<std::size_t> withheld_fits(const Map &map, const Need &need, std::optional<int> major);
// The places that would fit need for major but whose lib the map gives as a relative path, which
// no job may be handed: a map to mend, not a release to ask for.
std::vector<std::size_t> relative_fits(const Map &map, const Need &need, std::optional<int> major);

// The file in a release's directory that serves a request (find_library_file; injected).
using FindFile = std::function<std::optional<std::string>(const std::string &dir,
                                                          const LibraryName &requested, int major)>;
// resolve's answer: the first of choice's ranked releases whose directory holds the file asked
// for (`name`), and the ones before it that lack it, in words.
struct Resolved {
  const Installed *entry = nullptr;  // nullptr: no fitting release holds it
  std::string file;
  std::vector<std::string> skipped;
  std::string reason;  // why entry: the choice's reason, or why the one after those skipped
};
Resolved resolve_file(const Map &map, const Choice &choice, const LibraryName &requested,
                      const std::string &name, const FindFile &find_file);

// ---------------------------------------------------------------------------------------------
// decision_table.cc: `map.toml.decide`, the engine's own decisions compiled for the shim, which
// looks them up without starting a process (shim/fast_path.c reads it). Only releases whose
// library was probed and loaded are in it, as their libraries report them (as_library_reports);
// anything it does not settle goes to the engine. Its last line is "end": both readers refuse a
// table without it (cut short).

// The file the loader takes from ld.so.cache and the default directories is not in the table: the
// cache changes with every ldconfig and differs between the nodes that share a map, so the shim
// reads it itself (shim/shared/ld_system.c) and judges that file by identity like any other.
struct TableFacts {  // what only the file system and the libraries say, gathered by the writer
  std::vector<std::optional<Probe>> probes;     // per map entry: its libcudnn.so.<major>, probed
  std::vector<std::optional<FileStamp>> files;  // that file's identity when it was probed
  std::vector<Parsed<ReleaseCode>> codes =
      {};  // per map entry: its family's device code, or why not
  // Per map entry whose directory holds no libcudnn.so.<major>: the main library of another major
  // it holds, probed (entry_main_library), for the hooks' tables; nullopt otherwise.
  std::vector<std::optional<Probe>> other_major = {};
  // Per map entry whose library loaded: the sub-libraries its directory lacks (lacking_subs): such
  // a place is not handed over.
  std::vector<std::vector<std::string>> lacks = {};
};
// Whether entry i's place is not whole (TableFacts::lacks).
inline bool lacks_any(const TableFacts &facts, std::size_t i) {
  return i < facts.lacks.size() && !facts.lacks[i].empty();
}
std::string format_decision_table(const Map &map, const FileStamp &stamp, const TableFacts &facts);
// Why the library probed for entry e (nullopt: it did not load) keeps e out of the table: "did
// not load", "reports cuDNN 9.0.0, not 9.1.0", ...; "" when it says what the map says.
std::string library_disagreement(const Installed &e, const std::optional<Probe> &p);

// The libraries a decision table (as read_table believed it) knows: file identity -> map entry,
// whose version the library reported when the table was written (pure; empty for a damaged one).
struct KnownLibrary {
  std::uint64_t ino = 0, size = 0, mtime_ns = 0;
  std::size_t entry = 0;
  std::string path;  // where it was probed (its family: the sub-libraries beside it)
  std::optional<Version> version = {}, cuda = {};  // as the library reported them (its rel row)
};
std::vector<KnownLibrary> table_libraries(std::string_view table);
// The device code the table records per map entry ("code" rows; pure, empty for a damaged table).
std::map<std::size_t, ReleaseCode> table_codes(std::string_view table);
// The table's word for a file instead of a probe: the shim's fast path trusts the same identities,
// so the engine's answer cannot differ from the table's: the release and CUDA its library
// reported, and none where a CUDA is needed and the table knows none. The probe's `file` is the
// path the release was probed at: another path to the same file (a link in a directory of other
// sub-libraries) is not where its family is, and select_library hands over that path instead.
// Pure.
std::optional<Probe> remembered_probe(const std::vector<KnownLibrary> &known, const Map &map,
                                      const std::string &file, const FileStamp &identity,
                                      bool cuda_needed);

// ---------------------------------------------------------------------------------------------
// module_advice.cc: the one decision of which module command fixes a need, in the user's module
// system (pure; the CLI gathers the scene, the hooks pass theirs to module-check).

// Whose build a release is: EasyBuild (cuDNN/8.9.2.26-CUDA-12.1.1), Spack (a hash in the name).
Toolchain release_toolchain(const Installed &e);
// Whose build an application module is: its modulefile's tree (Compiler/GCC/12.3.0/, a Spack
// architecture directory), a Spack hash in its name, or its EBROOT<NAME> set.
Toolchain app_toolchain(const ModuleScene &scene, std::string_view module);
// The loaded cuDNN module a fix replaces (of the map, or named as a cuDNN module): the one of
// major when there is one, else the last loaded; "" when none is loaded.
std::string loaded_cudnn_module(const ModuleScene &scene, const Map *map, std::optional<int> major);
// The command that puts `to`'s module in old_module's place: `module swap OLD NEW` (Lmod),
// `module switch OLD NEW` (Environment Modules), or `module load NEW` when old_module is "". A
// module behind parents not loaded (`load_first`: an Lmod hierarchy) is `module unload OLD &&
// module load PARENTS NEW`. For a command the map refuses (scene.refused), what works from where
// the refusal left the user: that command again with NEW in OLD's place, or the swap and then
// the command's other loads (map: which unloaded module was a cuDNN one).
std::string module_command(const ModuleScene &scene, const Map *map, const std::string &old_module,
                           const Installed &to);
// Whether e's module can be loaded from where the advice starts: its load_first modules loaded.
bool reachable(const ModuleScene &scene, const Installed &e);
// What loading e's parents does to the loaded modules, in words, when a parent replaces a loaded
// version of it (gcc/12.2.0 for gcc/11.3.0: Lmod then deactivates what gcc/11.3.0 put on
// MODULEPATH, the application perhaps); "" when none does.
std::string parent_swap(const ModuleScene &scene, const Installed &e);
// The releases to advise, best first: rank()'s fitting ones (the map hands them out: no hidden
// module) that have a module, those the loaded modules reach first, then those of the
// application's toolchain.
std::vector<std::size_t> advised_releases(const Map &map, const Need &need,
                                          const LibraryName &requested, const ModuleScene &scene,
                                          Toolchain app);

// ---------------------------------------------------------------------------------------------
// module_check.cc: the check the Lmod and Environment Modules hooks run on the loaded set.

struct AppNeed {       // from an application modulefile's cudnn_requires("5.1", {cuda="8"})
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
// `gone`: the places the map lists whose files are gone (left out of map): a loaded module of
// no other place gives no cuDNN at all, and misfits every application.
std::vector<ModuleFinding> check_loaded_modules(const Map &map, const std::vector<AppNeed> &apps,
                                                const ModuleScene &scene,
                                                const std::vector<Installed> &gone = {});

// The hooks' fast path, `map.toml.fits` beside the map: every map module ("M\tcudnn/5.1"), the
// needs decided in advance ("N\t5.1", "N\t8.9,cuda=12": each release's x.y and full version,
// with and without its CUDA major) and the pairs that fit ("F\tcudnn/5.1\t5.1"). A hook that
// finds its pair there says nothing and starts no process; anything else asks module-check. The
// first line is the contract's stamp (docs/contract.md).
std::string format_fits_table(const Map &map, const FileStamp &stamp);  // pure
// `map.toml.misfits`, read by both hooks only when the fits table does not clear the loaded set:
// "G\tMODULE\tGROUP" per module, "W\tGROUP\tNEED\tSEVERITY\tTEXT" per misfit group and need:
// module-check's finding after the application's name (the module and the swap's word marked),
// for each misfit pair whose advice does not depend on the application's toolchain or on the
// command (SEVERITY is "warning": a map that refuses misfits has no W lines, as the advice after
// a refusal depends on what the refused command loaded). A hook that finds all its misfit pairs
// there prints them and starts no process (a process start costs it more than the check itself).
std::string format_misfits_table(const Map &map, const FileStamp &stamp);  // pure

// ---------------------------------------------------------------------------------------------
// select.cc: the shim's decision for one request of a cuDNN main library.

struct SelectIo {  // the edges, injected so that the decision itself stays testable
  std::function<LibraryCheck(const std::string &file)> probe;
  FindFile find_file;
  // The device code of the family a library file belongs to (unset or empty: not judged on GPUs).
  std::function<ReleaseCode(const std::string &file)> code = {};
  // The sub-library files the family of a library of release v names that its directory lacks
  // (lacking_subs; unset: none), asked only of a place the decision would hand over.
  std::function<std::vector<std::string>(const std::string &file, const Version &v)> lacks = {};
};

struct SelectInputs {
  std::string name;  // as the process asked for it
  LibraryName requested;
  Need need;
  std::optional<LoaderHit> loader;      // what the loader would take without the shim
  Source loader_source = Source::user;  // where that comes from
  const Map *map = nullptr;
  std::string map_problem;  // why there is no map, when map is null
  // No map at all, inside a container: the site has not opted in there (docs/containers.md), and
  // a host's CUDNN_COMPAT_REQUIRE carried in is no reason for a line in every process.
  bool quiet_without_map = false;
  bool debug = false;
};

// What a selection came to, as a usage record's verdict says it.
enum class Outcome {
  fit,         // the loader's own library fits
  redirected,  // another is handed over
  refused,     // none that fits was found: the ordinary load
  undecided,   // no answer could be had (a library could not be checked): the ordinary load
};
std::string_view to_string(Outcome o);

struct Selection {
  std::optional<std::string> use;  // load this file instead; nullopt keeps the ordinary load
  std::vector<std::string> say;    // lines for stderr: at most one unless debugging
  Outcome outcome = Outcome::undecided;
  std::optional<Version> loader_release = {};  // what the loader's own library reports
  std::optional<Version> loader_cuda = {};     // and the CUDA it was built for, where it says
  std::optional<Version> release = {};         // what `use` reports
  // fit()'s word on the loader's own library, when it was probed and judged: doctor's verdict on
  // the loader's choice is this one, the node's GPUs and driver included.
  std::optional<Verdict> loader_verdict = {};
  // For CUDNN_COMPAT_REPORT: where the file loaded comes from and the need that chose it
  // ("rule pytorch, the pin of torch 2.6.0: ..."); empty when nothing was judged.
  std::optional<Source> source = std::nullopt;
  std::string how = {};
  std::vector<std::string> notes = {};  // said only when debugging: what went well, no warning
};

Selection select_library(const SelectInputs &in, const SelectIo &io);
// Whether a library that reports p serves need for major (its version, and its CUDA when both are
// known), and why not.
Verdict serves(const Need &need, std::optional<int> major, const Probe &p);

// ---------------------------------------------------------------------------------------------
// usage_fields.cc: what the engine tells the shim for a usage record (issue 21; the format is
// shim/shared/usage_record.h).

// The record's fields from need to verdict (" need=... verdict=..."), encoded; the sources are
// the selection's (model.h's Source: where a place comes from).
std::string usage_fields(const SelectInputs &in, const Selection &s);

}  // namespace cudnn_compat
