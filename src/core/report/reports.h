// The reports: explain's reading of error messages, the advice drawn from the map, the doctor's
// diagnosis and the modulefiles' text. Pure. Uses the model, the map and the decisions.
#pragma once

#include "decide.h"

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cudnn_compat {

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
// The lines an application's modulefile carries to say which cuDNN it was built with: what
// cudnn_requires / cudnn-requires do, in standard commands only, so the modulefile loads with or
// without cudnn-compat's site package (another site, a spider cache built without it).
std::string need_lines(const Version &cudnn, std::optional<int> cuda_major, ModuleFormat format);

// ---------------------------------------------------------------------------------------------
// explain*.cc: the messages frameworks, cuDNN, build tools and the loader print, read back (pure):
// family readers for the wordings tools are known to print, a general reader beneath them.

enum class FindingKind {
  version_mismatch,
  library_not_found,
  sublibrary_mismatch,
  dependency_not_found,
  outdated,
  // Not cuDNN version problems: what runs on this node's GPU and driver (issue 22).
  arch_mismatch,   // a release or program without code for this GPU's architecture
  driver_too_old,  // the driver runs an older CUDA than the release or program was built for
  unknown
};
std::string_view to_string(FindingKind k);

struct Finding {
  bool recognized = false;
  FindingKind kind = FindingKind::unknown;
  std::string framework;                       // tensorflow, pytorch, ..., or "" for cuDNN/loader
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
  std::optional<Version> gpu;                  // the GPU's compute capability (7.0), when named
  std::optional<Version> driver_cuda;          // the CUDA the node's driver runs, when named
  // The code needs a cuDNN older than this: it calls an API this release removed, or says
  // "cuDNN version >= 8 is not yet supported".
  std::optional<Version> older_than;
  bool exact = false;  // required is the one release it takes (older_than: the next one)
  // The CUDA major a required release is to be built for ("... or newer for CUDA 11").
  std::optional<int> for_cuda;
  // The library is there but the loader could not load it, in the loader's words ("Permission
  // denied", "wrong ELF class: ELFCLASS32", "failed to map segment from shared object"); "" when
  // it was not found at all.
  std::string unloadable;
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
  std::string what;                       // what happened, versions as x.y.z
  std::string rule;                       // which rule refused, and whether NVIDIA's policy agrees
  std::optional<bool> compatible;         // by the framework's own rule, when versions are known
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
// Under LD_PRELOAD the shim sees dlopen only: a cuDNN that library links (DT_NEEDED) is mapped by
// the loader itself. The fix, with why it is needed, as doctor and resolve both say it.
std::string use_audit_fix(const std::string &library, const std::string &linked);
// The same command (LD_AUDIT for LD_PRELOAD) for another reason, given in words.
std::string use_audit_instead(const std::string &why);
// The one command that lets the shim hand over `asker`'s load from where the environment stands
// (the shim's mode: "LD_AUDIT", "LD_PRELOAD" or "" for off; CUDNN_COMPAT_DISABLE=1 set or not):
// the shim on, LD_PRELOAD traded for LD_AUDIT where `asker` links the library (`linked`, "" for
// a dlopen) and LD_PRELOAD cannot see that, CUDNN_COMPAT_DISABLE lifted. Each step alone left the
// process on its file (helper 99). `why` is said after it ("" for nothing); "" when nothing is to
// do. doctor and resolve both say it.
std::string shim_on_fix(const std::string &mode, bool disabled, const std::string &asker,
                        const std::string &linked, const std::string &why);
// fix with CUDNN_COMPAT_DISABLE lifted first where it is set (alone where fix is "").
std::string lift_disable(bool disabled, const std::string &fix, const std::string &why);

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
  // Those of them the family's directory lacks and whose file names no release, even through its
  // links (a lone libcudnn_x.so.9): the shim cannot tell them another release's and lets the
  // loader's own through.
  std::vector<std::string> unnamed_foreign = {};
  // Sub-libraries its own files name that its directory lacks and the loader finds nowhere:
  // cuDNN fails at the first handle (libcudnn_engines_tensor_ir.so.9).
  std::vector<std::string> missing_subs = {};
  Source source = Source::user;  // where hit comes from
  // The engine's word on hit, as the shim would decide (the need of this major, the node's GPUs
  // and driver), when asked: for the required major, and for every major on a node whose GPUs or
  // driver are known. What the shim would load instead, when it would hand another over.
  std::optional<Verdict> verdict = std::nullopt;
  std::string shim_use = {};
  std::string failed = {};  // why hit does not load, in the probe's words, when known
};
// A sub-library alone in a directory of LD_LIBRARY_PATH (no dispatcher of its major beside it)
// whose file names no release, and an installed family that lacks it and asks for it: that
// family, once loaded, takes it from there, another release's or not, and the shim cannot tell
// (pytorch#188892's shape, helper 110: each of doctor's fixes for a misfit led to it).
struct StraySub {
  std::string file;   // the lone file, as on the path
  std::string sub;    // "engines_tensor_ir"
  std::string taker;  // the lib directory of the family that would take it
  Version version;    // that family's release
  Source source = Source::user;
  bool fits = false;  // the family fits a framework's pin or is the shim's choice
};
// A framework of the active Python environment and the cuDNN its library will load.
struct FrameworkView {
  std::string name;          // "torch 2.6.0"
  std::string pin;           // "nvidia-cudnn-cu12==9.1.0.70", as its metadata says
  std::string library;       // its library that loads cuDNN
  std::optional<Need> need;  // the pin as a need, under the framework's rule
  Resolution resolved;       // what libcudnn.so.<major> becomes for that library
  bool runpath = false;      // the library's RUNPATH leads to a wheel's cuDNN
  bool links = false;        // the library links cuDNN (DT_NEEDED), which LD_PRELOAD never sees
  // Where an asked need (--require, CUDNN_COMPAT_REQUIRE, an application module's) comes before
  // the pin, as it does for the shim: its source, and what the shim then leaves the library
  // (the release it hands over, or the loader's it keeps).
  std::string asked_over_pin = {};
  std::optional<Probe> shim_gives = std::nullopt;
};
struct DoctorFacts {
  std::vector<std::string> modules;  // loaded, in order
  std::vector<PathDir> path;
  std::vector<Resolution> resolved;
  std::optional<int> cuda_major;  // of the loaded CUDA (module or CUDA_HOME)
  std::string cuda_from;
  std::string shim;         // "LD_AUDIT", "LD_PRELOAD" or "" when off
  std::string shim_choice;  // what it would load: for the required major, else the first it changes
  std::optional<Need> need;                 // --require, CUDNN_COMPAT_REQUIRE or a [[require]] rule
  std::string program;                      // --for
  std::vector<std::string> program_needs;   // its DT_NEEDED cuDNN libraries (cudnn_linked)
  ModuleScene scene;                        // the same, for the fixes' module commands
  std::optional<Version> shim_choice_cuda;  // the CUDA that library was built for, when known
  int shim_choice_major = 0;                // the major shim_choice is of
  std::vector<FrameworkView> frameworks;    // of the active Python environment
  std::vector<StraySub> strays;             // families a lone sub-library would join
  // Installed families the environment asks for (asked_of) that the loader does not take here -
  // where doctor's fixes lead - followed as the loader would from their own dispatcher.
  std::vector<Resolution> fix_targets;
  std::optional<NodeFacts> node;  // this node's GPUs and driver, when learnt
  // What puts the shim in report-only mode (it decides and records, every load stays the
  // loader's): "CUDNN_COMPAT_USAGE=..." or the map's [usage] mode; "" when it hands over.
  std::string report_only;
  std::string
      shim_disabled;         // "CUDNN_COMPAT_DISABLE=1": the shim, on or once on, passes every load
  std::string shim_ignored;  // when off: why the entry naming it does nothing (shim_in_env)

  // Whether the program links a cuDNN library of this major (a link LD_PRELOAD does not see).
  bool links(int major) const {
    return std::any_of(program_needs.begin(), program_needs.end(), [&](const std::string &n) {
      return parse_library_name(n)->version->major == major;
    });
  }
  // Whether the need is of this cuDNN major: that major is judged against it, the others against
  // the node alone.
  bool requires_major(int major) const {
    return need && need->cudnn && need->cudnn->major == major;
  }
  // A need of a CUDA alone (--cuda or CUDNN_COMPAT_CUDA, no cuDNN version): every major's
  // release is judged against it.
  bool needs_cuda_alone() const { return need && !need->cudnn && need->cuda_major; }
};
enum class Severity3 { ok, warning, problem };
struct DoctorFinding {
  Severity3 severity = Severity3::ok;
  std::string what;
  std::vector<std::string> fixes;
};
std::vector<DoctorFinding> diagnose(const DoctorFacts &facts, const Map *map);

// ---------------------------------------------------------------------------------------------
// node_table.cc: `doctor --nodes`, every node's answer lined up and judged together (pure).

struct NodeRow {  // what one node said (`doctor --node-report`)
  std::string node;
  std::optional<std::string> plugin;  // the SPANK plugin its steps load; nullopt: none
  std::string map;                    // the map its jobs get; "" when none was found
  std::optional<std::string> map_digest;
  std::optional<std::string> file;  // what libcudnn.so.<major> resolves to there, shim on
  std::optional<bool> fits;
  std::string verdict = "ok";                      // "ok", or every problem of the node in words
  std::optional<std::string> gpus = std::nullopt;  // its GPUs' compute capabilities; "-": none
};
// Adds what only the whole allocation shows to each node's verdict: a map whose content differs
// from most nodes' that read the same path (a copy that drifted; nodes given maps of their own,
// map=.../%n.toml, are judged by their answers), a node without the plugin where others have it
// (--cudnn does nothing there). Notes for the whole table go to notes. True when every node is ok.
bool judge_nodes(std::vector<NodeRow> &rows, std::vector<std::string> &notes);
// A table cell of at most width characters: a longer text cut, marked with "...", its end kept
// for a path (where the file name is), its start for words.
std::string table_cell(std::string_view text, std::size_t width);

}  // namespace cudnn_compat
