// The environment as the loader will see it, judged: which cuDNN each major resolves to and
// whether it fits, mixed families, several releases of one major on the path, a CUDA mismatch.
#include "advice.h"
#include "reports.h"
#include "text.h"

#include <algorithm>
#include <filesystem>
#include <map>

namespace cudnn_compat {
namespace {

// A file's directory as people read it: a RUNPATH's $ORIGIN/../.. undone.
std::string dir_of(const std::string &file) {
  return std::filesystem::path(file).lexically_normal().parent_path().string();
}

// "cuDNN 9.1 (from --require) for CUDA 11 (from --cuda)"; without a version, the CUDA alone.
std::string need_text(const Need &n) {
  std::string s = n.cudnn ? "cuDNN " + to_string(*n.cudnn) + " (from " + n.source + ")" : "";
  if (n.cuda_major)
    s += std::string(s.empty() ? "" : " for ") + "CUDA " + std::to_string(*n.cuda_major) +
         (n.cuda_source.empty() ? "" : " (from " + n.cuda_source + ")");
  return s + node_words(n.node);
}

using Findings = std::vector<DoctorFinding>;

// A file as the list that loaded it writes it: LD_PRELOAD's entry is what to remove.
std::string as_listed(const LoaderHit &hit) {
  return hit.named.empty() ? hit.path : hit.named;
}

void add(Findings &out, Severity3 s, std::string what, std::vector<std::string> fixes = {}) {
  out.push_back({s, std::move(what), std::move(fixes)});
}

const std::string shim_fix = CUDNN_COMPAT_SHIM_ON;

// A major the loader finds nowhere: a problem when the program links it or needs it.
void judge_missing(const DoctorFacts &f, const Resolution &r, const Map *map, Findings &out) {
  const std::string name = "libcudnn.so." + std::to_string(r.major);
  const bool required = f.requires_major(r.major);
  const bool linked =
      std::find(f.program_needs.begin(), f.program_needs.end(), name) != f.program_needs.end();
  std::vector<std::string> fixes =
      installed_fixes(map, linked || !f.need ? Need{} : *f.need, r.major, f.scene);
  // A major followed only because nothing said which (8 and 9), beside another that is found:
  // nobody asked for it, and "ask the admins for cuDNN 8" was advice for no one (helper 111).
  const bool other_found = std::any_of(f.resolved.begin(), f.resolved.end(),
                                       [](const Resolution &o) { return o.hit.has_value(); });
  if (!required && !linked && other_found)
    return add(out, Severity3::ok,
               "no " + name + " in this environment, and nothing here asks for cuDNN " +
                   std::to_string(r.major));
  if (fixes.empty())
    fixes.push_back("ask the admins for " + (required ? release_to_ask_for(*f.need, r.major)
                                                      : "cuDNN " + std::to_string(r.major)));
  if (linked)
    add(out, Severity3::problem,
        f.program + " links " + name + ", which the loader finds nowhere: it will not start",
        fixes);
  else
    add(out, required ? Severity3::problem : Severity3::warning,
        "the loader finds no " + name + " in this environment", fixes);
}

// Report-only in words, where it keeps a load the shim would change: ", in report-only mode
// (CUDNN_COMPAT_USAGE=report-only), keeps it; it".
std::string kept_by(const DoctorFacts &f) {
  if (f.shim.empty()) return "";
  if (!f.shim_disabled.empty())
    return ", passing every load on (" + f.shim_disabled + "), keeps it; it";
  return f.report_only.empty() ? "" : ", in report-only mode (" + f.report_only + "), keeps it; it";
}

// shim_on_fix, where report-only mode does not keep the load all the same.
std::string shim_fix_for(const DoctorFacts &f, const std::string &asker, const std::string &name,
                         bool links, const std::string &why) {
  return f.report_only.empty()
             ? shim_on_fix(f.shim, !f.shim_disabled.empty(), asker, links ? name : "", why)
             : "";
}

// The fixes that let the shim hand over a major's load, where it would hand one over: a cuDNN
// LD_PRELOAD loads is every later load of its name, whatever the shim says.
void add_shim_fix(const DoctorFacts &f, const Resolution &r, const char *why,
                  std::vector<std::string> &fixes) {
  if (r.shim_use.empty()) return;  // where none fits or runs, the shim keeps the loader's choice
  if (r.hit && r.hit->from == "LD_PRELOAD")
    fixes.push_back("remove " + as_listed(*r.hit) +
                    " from LD_PRELOAD   # loaded before anything asks");
  const std::string name = "libcudnn.so." + std::to_string(r.major);
  if (std::string fix = shim_fix_for(f, f.program, name, f.links(r.major), why); !fix.empty())
    fixes.push_back(std::move(fix));
}

// A loader's choice the engine judges unable to run on this node (no requirement: the GPUs and
// driver alone), with the module of a release that runs there.
void judge_cannot_run(const DoctorFacts &f, const Resolution &r, const Map *map,
                      const std::string &what, Findings &out) {
  Need here;
  here.rule = map ? map->policy.rule : Rule::nvidia, here.node = f.node;
  std::vector<std::string> fixes = installed_fixes(map, here, r.major, f.scene);
  if (fixes.empty()) fixes.push_back("ask the admins for " + release_to_ask_for(here, r.major));
  add_shim_fix(f, r, "picks a release that runs here", fixes);
  add(out, Severity3::problem,
      what + ", which cannot run" + node_words(f.node) + ": " + r.verdict->reason +
          (r.shim_use.empty() ? "" : "; the shim" + kept_by(f) + " would load " + r.shim_use),
      fixes);
}

// A need of a CUDA alone against the release a major resolves to: false, and the problem said, when
// it does not fit; else what that fit is, in words.
bool judge_cuda_alone(const DoctorFacts &f, const Resolution &r, const Map *map, std::string &what,
                      Findings &out) {
  Need cuda = *f.need;
  cuda.node.reset();  // the node is judged on its own, with its own words
  const Verdict v = serves(cuda, r.major, *r.probe);
  if (v.compatible) {
    what += ", which fits " + need_text(cuda) + ": " + v.reason;
    return true;
  }
  std::vector<std::string> fixes = installed_fixes(map, cuda, r.major, f.scene);
  cuda.node = f.node;
  if (fixes.empty()) fixes.push_back("ask the admins for " + release_to_ask_for(cuda, r.major));
  add_shim_fix(f, r, "picks a release built for it", fixes);
  cuda.node.reset();
  add(out, Severity3::problem, what + ", but " + need_text(cuda) + " does not fit it: " + v.reason,
      fixes);
  return false;
}

// The release a major resolves to, against the need and the node; false when it does not fit.
bool judge_fit(const DoctorFacts &f, const Resolution &r, const Map *map, Findings &out) {
  const std::string name = "libcudnn.so." + std::to_string(r.major);
  std::string what = name + " resolves to " + r.hit->path + " (" + r.hit->from + ", " +
                     std::string(to_string(r.source)) + "): cuDNN " + to_string(r.probe->version) +
                     (r.probe->cuda ? " for CUDA " + to_string(*r.probe->cuda) : "");
  if (f.requires_major(r.major)) {
    // The engine's verdict, as the shim decides: the node's GPUs and driver count.
    const Verdict v = r.verdict.value_or(serves(*f.need, r.major, *r.probe));
    if (!v.compatible) {
      std::vector<std::string> fixes = installed_fixes(map, *f.need, r.major, f.scene);
      Need asked = *f.need;
      asked.node = f.node;
      if (fixes.empty())
        fixes.push_back("ask the admins for " + release_to_ask_for(asked, r.major));
      add_shim_fix(f, r, "picks a fitting release", fixes);
      add(out, Severity3::problem,
          what + ", but " + need_text(*f.need) + " does not fit it: " + v.reason, fixes);
      return false;
    }
    what += ", which fits " + need_text(*f.need) + ": " + v.reason;
  } else if (f.needs_cuda_alone() && !judge_cuda_alone(f, r, map, what, out)) {
    return false;
  } else if (r.verdict && !r.verdict->compatible) {
    judge_cannot_run(f, r, map, what, out);
    return false;
  } else if (r.verdict && !node_words(f.node).empty()) {
    what += ", which runs" + node_words(f.node);
  }
  add(out, Severity3::ok, what);
  return true;
}

// Each sub-library the dispatcher would take from another place. The shim keeps the family whole
// where it can tell the stray file another release's; one whose file names no release it lets
// through, and turning it on is then no fix (helper 109: doctor said "the shim keeps the family
// whole" and cuDNN returned CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH).
void judge_mixed(const DoctorFacts &f, const Resolution &r, const std::string &whose,
                 Findings &out) {
  for (const auto &[sub, hit] : r.foreign_subs) {
    const bool unnamed = std::find(r.unnamed_foreign.begin(), r.unnamed_foreign.end(), hit.path) !=
                         r.unnamed_foreign.end();
    const bool kept = !f.shim.empty() && !unnamed;
    std::vector<std::string> fixes{hit.from == "LD_LIBRARY_PATH"
                                       ? "remove " + dir_of(hit.path) + " from LD_LIBRARY_PATH"
                                       : "install the whole family in " + dir_of(r.hit->path)};
    if (unnamed && hit.from == "LD_LIBRARY_PATH")
      fixes.push_back("install the whole family in " + dir_of(r.hit->path));
    if (!unnamed) fixes.push_back(shim_fix);
    add(out, kept ? Severity3::warning : Severity3::problem,
        "mixed family" + whose + ": the cuDNN " + to_string(r.probe->version) + " dispatcher in " +
            dir_of(r.hit->path) + " would load " + sub + " from " + hit.path + " (" + hit.from +
            "), another release's" +
            (kept      ? "; the shim, which is on, keeps the family whole"
             : unnamed ? "; its file names no release, so the shim cannot tell it apart and lets "
                         "it load"
                       : ""),
        fixes);
  }
}

// Each sub-library the family's own files name that its directory lacks and the loader finds
// nowhere: the probe loads the dispatcher, and cuDNN fails only at the first handle
// (CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED; helpers 110, 111: doctor said ok, and each of its
// fixes failed the same way). `mend`: the fix, a reinstall where a package manager owns it.
void judge_missing_subs(const Resolution &r, const std::string &whose, const std::string &mend,
                        Findings &out) {
  for (const std::string &file : r.missing_subs)
    add(out, Severity3::problem,
        "incomplete family" + whose + ": the cuDNN " + to_string(r.probe->version) + " in " +
            dir_of(r.hit->path) + " lacks " + file +
            ", which its own libraries load, and the loader finds it nowhere else: cuDNN will "
            "return CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED at the first handle",
        {mend.empty() ? "install the whole family in " + dir_of(r.hit->path) + " again" : mend});
}

// A fitting release whose family the loader would mix, or built for another CUDA than loaded.
void judge_family(const DoctorFacts &f, const Resolution &r, const Map *map, Findings &out) {
  judge_mixed(f, r, "", out);
  judge_missing_subs(r, "", "", out);
  // A CUDA the job says it runs is judged against the loaded one once (judge_cuda_asked). The
  // frameworks of the environment that name their CUDA (a -cu12 wheel, a conda cuda-version) run
  // the CUDA they bring, whatever is loaded: their lines judge it (helper 105 r03: doctor never
  // said ok after its own advice was followed, CUDA_HOME naming CUDA 13 beside cu12 wheels).
  const auto bring_it = [&](const FrameworkView &v) {
    return v.need && v.need->cuda_major && r.probe->cuda &&
           *v.need->cuda_major == r.probe->cuda->major;
  };
  if (!f.cuda_major || !r.probe->cuda || r.probe->cuda->major == *f.cuda_major ||
      (f.need && f.need->cuda_major) ||
      (!f.frameworks.empty() && std::all_of(f.frameworks.begin(), f.frameworks.end(), bring_it)))
    return;
  const std::string loaded = std::to_string(*f.cuda_major);
  std::vector<std::string> fixes =
      installed_fixes(map, Need{std::nullopt, f.cuda_major, Rule::nvidia, ""}, r.major, f.scene);
  if (fixes.empty())
    fixes.push_back("ask the admins for a cuDNN " + std::to_string(r.major) + " built for CUDA " +
                    loaded + ", or load the CUDA " + std::to_string(r.probe->cuda->major) +
                    " it is built for");
  add(out, Severity3::problem,
      "cuDNN " + to_string(r.probe->version) + " is built for CUDA " + to_string(*r.probe->cuda) +
          " but CUDA " + loaded + " is loaded (" + f.cuda_from + ")",
      fixes);
}

void judge_resolution(const DoctorFacts &f, const Resolution &r, const Map *map, Findings &out) {
  if (!r.hit) return judge_missing(f, r, map, out);
  if (!r.probe) {
    // The places that load and fit, else the mend of this one.
    std::vector<std::string> fixes =
        installed_fixes(map, f.requires_major(r.major) ? *f.need : Need{}, r.major, f.scene);
    fixes.push_back("install the cuDNN in " + dir_of(r.hit->path) +
                    " again, whole, or take it off LD_LIBRARY_PATH");
    // The probe's words name the file first: "FILE does not load (why)".
    const std::string why = r.failed.starts_with(r.hit->path + " ")
                                ? r.failed.substr(r.hit->path.size() + 1)
                                : "does not load";
    return add(out, Severity3::problem,
               "libcudnn.so." + std::to_string(r.major) + " resolves to " + r.hit->path + " (" +
                   r.hit->from + "), which " + why,
               fixes);
  }
  if (judge_fit(f, r, map, out)) judge_family(f, r, map, out);
}

// Several releases of one major on the path: the first wins, the order of `module load` decides.
void judge_path(const DoctorFacts &f, Findings &out) {
  std::map<int, std::vector<std::string>> by_major;
  for (const PathDir &d : f.path)
    for (const Probe &p : d.probes)
      by_major[p.version.major].push_back(to_string(p.version) + " in " + d.dir);
  for (const auto &[major, where] : by_major)
    if (where.size() > 1) {
      add(out, Severity3::warning,
          std::to_string(where.size()) + " cuDNN " + std::to_string(major) +
              " releases on LD_LIBRARY_PATH (" + join(where, "; ") + "): the first is taken",
          {"module unload the ones you do not need"});
    }
}

// Whether the shim is on and what it would load: a problem when that is built for another CUDA
// than the loaded one, since the shim knows a job's CUDA only from CUDNN_COMPAT_CUDA.
DoctorFinding shim_finding(const DoctorFacts &f, const Map *map) {
  // Named but doing nothing: every load the shim would mend is the loader's (helper 99).
  if (f.shim.empty() && !f.shim_ignored.empty())
    return {Severity3::problem,
            "the shim is off: " + f.shim_ignored,
            {shim_fix + "   # the installed shim, engine beside it"}};
  const bool kept = !kept_by(f).empty();
  const std::string how =
      !f.shim_disabled.empty()
          ? " but passes every load on (" + f.shim_disabled + ")"
          : " in report-only mode (" + f.report_only + "): every load stays the loader's choice";
  const std::string shim =
      (f.shim.empty() ? "the shim is off" : "the shim is on (" + f.shim + ")" + (kept ? how : "")) +
      (f.shim_choice.empty()
           ? ""
           : (kept ? "; it would hand over " : "; it would load ") + f.shim_choice);
  if (!f.cuda_major || !f.shim_choice_cuda || f.shim_choice_cuda->major == *f.cuda_major ||
      (f.need && f.need->cuda_major))  // the need's CUDA is judged against the loaded one apart
    return {Severity3::ok, shim, {}};
  // CUDNN_COMPAT_CUDA helps where a release built for the loaded CUDA runs here; where none does,
  // the shim would hand nothing over under it.
  Need loaded;
  loaded.cuda_major = f.cuda_major, loaded.node = f.node;
  loaded.rule = map ? map->policy.rule : Rule::nvidia;
  LibraryName any;
  any.version = Version{f.shim_choice_major, {}, {}, {}};
  const std::string cuda = std::to_string(*f.cuda_major);
  const bool built = map && !rank(*map, loaded, any).empty();
  return {
      f.shim.empty() ? Severity3::warning : Severity3::problem,
      shim + ", built for CUDA " + to_string(*f.shim_choice_cuda) + ", but CUDA " + cuda +
          " is loaded (" + f.cuda_from + ")",
      {built ? "export CUDNN_COMPAT_CUDA=" + cuda + "   # the shim then picks a cuDNN built for it"
             : "ask the admins for a cuDNN built for CUDA " + cuda + node_words(f.node) +
                   ", or load the CUDA the installed releases are built for"}};
}

void judge_shim_and_program(const DoctorFacts &f, const Map *map, Findings &out) {
  out.push_back(shim_finding(f, map));
  if (f.program.empty()) return;
  const std::string links = join(f.program_needs, ", ");
  add(out, f.program_needs.empty() ? Severity3::warning : Severity3::ok,
      f.program + (f.program_needs.empty()
                       ? " links no cuDNN library (it may dlopen one at run time)"
                       : " links " + links));
}

// Why the loader takes that file for a framework's library: the order of its search.
std::string why_there(const FrameworkView &v) {
  const std::string &from = v.resolved.hit->from;
  if (from == "LD_LIBRARY_PATH")
    return v.runpath ? "LD_LIBRARY_PATH, which the loader searches before its RUNPATH"
                     : "LD_LIBRARY_PATH";
  if (from.starts_with("RUNPATH")) return "its RUNPATH";
  if (from.starts_with("RPATH")) return "its RPATH";
  if (from == "LD_PRELOAD") return "LD_PRELOAD, which loaded it before anything asked";
  return "the system (" + from + "): neither LD_LIBRARY_PATH nor its RUNPATH has one";
}

// Whether the shim, on, sees the framework's load: LD_PRELOAD's shim sees no DT_NEEDED link, and
// a cuDNN LD_PRELOAD lists is loaded before anything asks.
bool shim_sees(const DoctorFacts &f, const FrameworkView &v) {
  return v.resolved.hit && v.resolved.hit->from != "LD_PRELOAD" &&
         (f.shim == "LD_AUDIT" || (f.shim == "LD_PRELOAD" && !v.links));
}

// The fix where an asked need leads the shim away from what the pin accepts.
std::string asked_fix(const FrameworkView &v) {
  return v.asked_over_pin == "CUDNN_COMPAT_REQUIRE"
             ? "unset CUDNN_COMPAT_REQUIRE   # the shim then follows the pin"
             : "leave out the need of " + v.asked_over_pin + "   # it comes before every pin";
}

// Whether the shim, turned on, would leave the library a release its pin accepts: where an asked
// need comes before the pin, only if what it then gives fits (helper 106: "export LD_AUDIT ...
// picks a release that fits the pin" was advised, and followed, kept the misfit).
bool shim_would_fit_pin(const FrameworkView &v) {
  return v.asked_over_pin.empty() ||
         (v.shim_gives && v.need && serves(*v.need, v.resolved.major, *v.shim_gives).compatible);
}

// An asked need comes before the pin (docs/python.md, "Precedence"): the shim follows it, and what
// it leaves the library is judged against the pin. Helper 105: doctor said the shim hands over
// 9.23.0 while, for CUDNN_COMPAT_REQUIRE=9.1.0.70, it kept the wheel's 9.1.0 under a 9.20 pin.
bool judge_asked_over_pin(const DoctorFacts &f, const FrameworkView &v, const std::string &what,
                          Findings &out) {
  if (v.asked_over_pin.empty() || !v.shim_gives || !v.need || !shim_sees(f, v) ||
      !f.shim_disabled.empty() || !f.report_only.empty())
    return false;
  const Resolution &r = v.resolved;
  const Verdict got = serves(*v.need, r.major, *v.shim_gives);
  const std::string follows =
      "; the shim, which is on (" + f.shim + "), follows " + v.asked_over_pin + " (cuDNN " +
      to_string(*f.need->cudnn) + "), which comes before any pin, and " +
      (r.shim_use.empty()
           ? "keeps it"
           : "hands over " + r.shim_use + " (cuDNN " + to_string(v.shim_gives->version) + ")");
  if (got.compatible) {
    add(out, Severity3::ok, what + follows + ", which fits its pin: " + got.reason);
    return true;
  }
  add(out, Severity3::problem, what + follows + ", which does not fit its pin: " + got.reason,
      {asked_fix(v)});
  return true;
}

// The cuDNN the framework's library loads (what) against its pin, where the shim decides by it.
void judge_pin(const DoctorFacts &f, const FrameworkView &v, const Map *map,
               const std::string &what, Findings &out) {
  const Resolution &r = v.resolved;
  const std::string name = "libcudnn.so." + std::to_string(r.major);
  const Verdict fits = v.need ? serves(*v.need, r.major, *r.probe) : Verdict{true, ""};
  // The shim, on and able to see this load, hands over a release that fits: doctor said
  // "problem" after its own advice was followed (helper 97).
  if (!fits.compatible && shim_sees(f, v) && f.shim_disabled.empty() && !r.shim_use.empty())
    add(out, Severity3::ok,
        what + ", which does not fit its pin (" + fits.reason + "); the shim, which is on (" +
            f.shim + "), hands over " + r.shim_use + " instead");
  else if (!fits.compatible) {
    std::vector<std::string> fixes;
    if (r.hit->from == "LD_LIBRARY_PATH" || r.hit->from == "LD_PRELOAD")
      fixes.push_back("remove " +
                      (r.hit->from == "LD_PRELOAD" ? as_listed(*r.hit) : dir_of(r.hit->path)) +
                      " from " + r.hit->from);
    std::vector<std::string> installed = installed_fixes(map, *v.need, r.major, f.scene);
    // The shim only picks among installed releases: where none fits, it would change nothing. In
    // its own environment the framework's pin can be met, as the shim's line says (helper 110).
    if (installed.empty() && !v.need->install.empty() && map)
      fixes.push_back(replacing_install(*map, *v.need) + "   # in its environment");
    if (installed.empty())
      fixes.push_back("ask the admins for " + release_to_ask_for(*v.need, r.major));
    else if (!shim_would_fit_pin(v))
      installed.push_back(asked_fix(v));
    else if (std::string fix =
                 shim_fix_for(f, v.library, name, v.links, "picks a release that fits the pin");
             !fix.empty())
      installed.push_back(std::move(fix));
    for (std::string &fix : installed) fixes.push_back(std::move(fix));
    add(out, Severity3::problem, what + ", which does not fit its pin: " + fits.reason, fixes);
  } else {
    add(out, Severity3::ok,
        what + (v.need ? ", which fits its pin: " + fits.reason : std::string()));
  }
}

// A wheel's or conda package's family that is broken: reinstalled in its environment, by the
// framework's own pin; "" where no package manager owns it.
std::string reinstall_fix(const FrameworkView &v, const Resolution &r) {
  return (r.source == Source::wheel || r.source == Source::conda) && v.need &&
                 !v.need->install.empty()
             ? reinstall(v.need->install) + "   # in its environment"
             : "";
}

// A framework of the active environment: the cuDNN its library will load, against its pin.
void judge_framework(const DoctorFacts &f, const FrameworkView &v, const Map *map, Findings &out) {
  const std::string who = v.name + " (" + v.pin + ")";
  if (v.library.empty())
    return add(out, Severity3::warning,
               who +
                   ": none of its libraries links cuDNN or leads to a wheel's (it may load "
                   "one by path at run time)");
  const Resolution &r = v.resolved;
  const std::string name = "libcudnn.so." + std::to_string(r.major);
  if (!r.hit)
    return add(out, Severity3::problem, who + ": " + v.library + " finds no " + name,
               installed_fixes(map, v.need.value_or(Need{}), r.major, f.scene));
  std::string what = who + ": " + v.library + " loads " + name + " from " + dir_of(r.hit->path) +
                     " (" + std::string(to_string(r.source)) + ", through " + why_there(v) + ")";
  // A wheel's or conda package's that does not load: broken, reinstalled in its environment.
  if (!r.probe) {
    const std::string mend = reinstall_fix(v, r);
    return add(out, Severity3::problem, what + ", which does not load",
               mend.empty() ? std::vector<std::string>{} : std::vector<std::string>{mend});
  }
  what += ": cuDNN " + to_string(r.probe->version);
  if (!judge_asked_over_pin(f, v, what, out)) judge_pin(f, v, map, what, out);
  judge_mixed(f, r, " for " + v.name, out);
  judge_missing_subs(r, " for " + v.name, reinstall_fix(v, r), out);
}

}  // namespace

// The CUDA the job says it runs (--cuda, CUDNN_COMPAT_CUDA) against the CUDA its environment has
// loaded: releases are chosen for the first, and the job would run the second. Advising the
// releases of the loaded CUDA would override the user's own word.
void judge_cuda_asked(const DoctorFacts &f, Findings &out) {
  if (!f.need || !f.need->cuda_major || !f.cuda_major || *f.cuda_major == *f.need->cuda_major)
    return;
  const std::string asked = std::to_string(*f.need->cuda_major);
  const std::string loaded = std::to_string(*f.cuda_major);
  add(out, Severity3::problem,
      "CUDA " + asked + " is needed (from " + f.need->cuda_source + ") but CUDA " + loaded +
          " is loaded (" + f.cuda_from + "): cuDNN is chosen for the one, the job runs the other",
      {"load a CUDA " + asked + " (module avail cuda), or set CUDA_HOME to one",
       "or, if the job runs CUDA " + loaded + ": export CUDNN_COMPAT_CUDA=" + loaded});
}

// A lone sub-library an installed family would take once loaded: a problem where that family is
// one this environment asks for (a framework's pin fits it, or the shim would choose it), since
// every fix that leads there mixes the family (helper 110); else a warning.
void judge_strays(const DoctorFacts &f, Findings &out) {
  for (const StraySub &s : f.strays)
    add(out, s.fits ? Severity3::problem : Severity3::warning,
        s.file + " is alone on LD_LIBRARY_PATH (no libcudnn.so." + std::to_string(s.version.major) +
            " beside it) and its name says no release: the cuDNN " + to_string(s.version) + " in " +
            s.taker + " (" + std::string(to_string(s.source)) + "), which lacks libcudnn_" + s.sub +
            " and asks for it, takes this one once loaded, " +
            "and the shim cannot tell whether it is another release's",
        {"remove " + dir_of(s.file) + " from LD_LIBRARY_PATH"});
}

// A family the fixes lead to that will fail once reached: its reinstall, by the pin of a framework
// it fits, where a package manager owns it.
void judge_fix_targets(const DoctorFacts &f, Findings &out) {
  for (const Resolution &r : f.fix_targets) {
    std::string mend;
    for (const FrameworkView &v : f.frameworks)
      if (mend.empty() && v.need && serves(*v.need, r.major, *r.probe).compatible)
        mend = reinstall_fix(v, r);
    judge_missing_subs(r, " where the fixes lead (" + std::string(to_string(r.source)) + ")", mend,
                       out);
  }
}

std::vector<DoctorFinding> diagnose(const DoctorFacts &f, const Map *map) {
  Findings out;
  judge_cuda_asked(f, out);
  for (const FrameworkView &v : f.frameworks) judge_framework(f, v, map, out);
  for (const Resolution &r : f.resolved) judge_resolution(f, r, map, out);
  judge_strays(f, out);
  judge_fix_targets(f, out);
  judge_path(f, out);
  judge_shim_and_program(f, map, out);
  return out;
}

}  // namespace cudnn_compat
