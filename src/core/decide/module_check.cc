// The check behind the module-system hooks: does each loaded application's cuDNN fit the cuDNN
// module loaded beside it, by the module's true version in the map, and which module would.
#include "decide.h"
#include "site_contract.h"
#include "text.h"

#include <algorithm>

namespace cudnn_compat {
namespace {

std::string need_text(const AppNeed &a) {
  std::string s = "cuDNN " + to_string(a.cudnn);
  if (a.cuda_major) s += " for CUDA " + std::to_string(*a.cuda_major);
  return s;
}

// The releases to advise for application a, best first (module_advice.cc).
std::vector<std::size_t> advice(const Map &map, const AppNeed &a, const ModuleScene &scene,
                                Toolchain toolchain) {
  return advised_releases(map, Need{a.cudnn, a.cuda_major, map.policy.rule, a.module},
                          LibraryName{}, scene, toolchain);
}

// What to say when no module the map hands out fits a: a hidden module that would (the site
// withdrew it), else that the map lists none (a release installed since the last scan is not in
// it), and what to ask the admins for.
std::string no_module_fits(const Map &map, const AppNeed &a) {
  std::string held;
  for (std::size_t i :
       withheld_fits(map, Need{a.cudnn, a.cuda_major, map.policy.rule, a.module}, a.cudnn.major))
    if (const Installed &e = map.cudnn[i]; !e.module.empty())
      held += (held.empty() ? "" : ", ") + e.module + " (" + to_string(e.version) + ")";
  const std::string ask =
      "ask the admins for " +
      release_to_ask_for(Need{a.cudnn, a.cuda_major, map.policy.rule, a.module}, a.cudnn.major);
  if (!held.empty())
    return "No cuDNN module the site hands out fits: " + held +
           " would, but the map withholds it (a hidden module: withdrawn); " + ask;
  return "No cuDNN module in the version map fits; " + ask +
         " (or, if one is installed, to add it to the map: cudnn-compat scan --merge)";
}

// A warning names this many fixes at most: a site with 100 modules of one release would otherwise
// print a hundred.
constexpr std::size_t kAdvised = 3;

// What to run instead of the misfit module `old`, best first, as "module swap OLD NEW   (x.y.z)".
std::string fix_text(const Map &map, const AppNeed &a, const std::vector<std::size_t> &advised,
                     const std::string &old, const ModuleScene &scene) {
  std::string out;
  for (std::size_t n = 0; n < advised.size() && n < kAdvised; ++n) {
    const Installed &e = map.cudnn[advised[n]];
    out += out.empty() ? "Use: " : "; or: ";
    const std::string swap = parent_swap(scene, e), command = module_command(scene, &map, old, e);
    if (command.empty())
      return "Nothing to run: " + e.module + " (" + to_string(e.version) +
             "), which fits, is still loaded (the refused command would have replaced it)";
    out += command + "   (" + to_string(e.version) + (swap.empty() ? "" : "; " + swap) + ")";
  }
  if (advised.size() > kAdvised)
    out += "; " + std::to_string(advised.size() - kAdvised) +
           " more fit (`cudnn-compat resolve --require " + to_string(a.cudnn) +
           (a.cuda_major ? " --cuda " + std::to_string(*a.cuda_major) : "") + " libcudnn.so." +
           std::to_string(a.cudnn.major) + "` lists them)";
  return out.empty() ? no_module_fits(map, a) : out;
}

// Why release e does not serve application a under the map's rule; nullopt when it does. The
// application asks for libcudnn.so.<its major>, so only that major can serve it.
std::optional<std::string> misfit(const Map &map, const Installed &e, const AppNeed &a) {
  const Verdict v =
      entry_fits(e, Need{a.cudnn, a.cuda_major, map.policy.rule, a.module}, a.cudnn.major);
  return v.compatible ? std::nullopt : std::optional<std::string>(v.reason);
}

// The map's modules, each once, in the order the map first names them.
std::vector<std::string> map_modules(const Map &map) {
  std::vector<std::string> out;
  for (const Installed &e : map.cudnn)
    if (!e.module.empty() && std::find(out.begin(), out.end(), e.module) == out.end())
      out.push_back(e.module);
  return out;
}

// Whether the map lists module m under two sets of parents (one name in two branches of an Lmod
// hierarchy): which release it loads depends on the loaded parents, which only module-check sees.
bool name_in_two_branches(const Map &map, const std::string &m) {
  const Installed *seen = nullptr;
  for (const Installed &e : map.cudnn)
    if (e.module == m) {
      if (seen && seen->load_first != e.load_first) return true;
      seen = &e;
    }
  return false;
}

// Whether place e is what module m is when `loaded` are loaded: of m's places, those whose
// parents are all loaded, else (none is) every one.
bool loaded_as(const Map &map, const Installed &e, const std::string &m,
               const std::vector<LoadedModule> &loaded) {
  const auto parents_loaded = [&](const Installed &p) {
    return std::all_of(p.load_first.begin(), p.load_first.end(), [&](const std::string &name) {
      return std::any_of(loaded.begin(), loaded.end(),
                         [&](const LoadedModule &l) { return l.name == name; });
    });
  };
  if (e.module != m) return false;
  return parents_loaded(e) ||
         std::none_of(map.cudnn.begin(), map.cudnn.end(),
                      [&](const Installed &p) { return p.module == m && parents_loaded(p); });
}

// Why module m does not fit application a, after the application's name (" was built with ...
// . "), with m written as `shown`; nullopt when m fits. A module fits when every release the map
// lists under it (with the loaded parents) does.
std::optional<std::string> misfit_after_app(const Map &map, const std::string &m, const AppNeed &a,
                                            const std::string &shown,
                                            const std::vector<LoadedModule> &loaded) {
  for (const Installed &e : map.cudnn) {
    if (!loaded_as(map, e, m, loaded)) continue;
    if (const std::optional<std::string> why = misfit(map, e, a))
      return " was built with " + need_text(a) + " but " + shown + " provides " +
             to_string(e.version) + "; " + *why + ". ";
  }
  return std::nullopt;
}

// The advice for application a beside the other loaded applications: only a release that fits
// them all (one cuDNN module is loaded for all of them), else that none does, and which module
// would serve a alone.
std::string shared_fix(const Map &map, const std::vector<AppNeed> &apps, const AppNeed &a,
                       std::vector<std::size_t> advised, const std::string &old,
                       const ModuleScene &scene) {
  const AppNeed *against = nullptr;
  const std::vector<std::size_t> alone = advised;
  std::erase_if(advised, [&](std::size_t i) {
    for (const AppNeed &b : apps) {
      if (&b == &a || !misfit(map, map.cudnn[i], b)) continue;
      against = &b;
      return true;
    }
    return false;
  });
  if (!advised.empty() || alone.empty() || !against) return fix_text(map, a, advised, old, scene);
  const Installed &e = map.cudnn[alone.front()];
  return "No cuDNN module fits both " + a.module + " (" + need_text(a) + ") and " +
         against->module + " (" + need_text(*against) +
         "): load them in separate shells or jobs (" + e.module + ", " + to_string(e.version) +
         ", fits " + a.module + " alone)";
}

// In the misfits table, the misfit module's name and the hook's word for a swap: the hook puts
// them back (docs/contract.md).
const std::string kModuleMark = SITE_MODULE_MARK;

// The modules whose releases are the same (versions and CUDA), each as one group: a site with a
// hundred modules of a few releases has a few groups, and the misfits table a few lines per need.
// Each module with its group; `first` gets each group's first module.
std::vector<std::pair<std::string, std::size_t>> module_groups(const Map &map,
                                                               std::vector<std::string> &first) {
  std::vector<std::pair<std::string, std::size_t>> out;
  std::vector<std::string> keys;
  for (const std::string &m : map_modules(map)) {
    std::string key;
    for (const Installed &e : map.cudnn)
      if (e.module == m)
        key += to_string(e.version) + "/" + (e.cuda ? to_string(*e.cuda) : "-") + " ";
    const auto at = std::find(keys.begin(), keys.end(), key);
    out.push_back({m, std::size_t(at - keys.begin())});
    if (at == keys.end()) keys.push_back(key), first.push_back(m);
  }
  return out;
}

// The Environment Modules hook's lines for a need's misfit groups
// ("W\tGROUP\tNEED\tSEVERITY\tTEXT", TEXT following the application's name, with kModuleMark
// for the module) when the advice is the same whatever the application's toolchain: the hook
// prints them without starting module-check. A need whose advice depends on the toolchain is left
// to module-check, which reads the application's modulefile.
std::string misfit_lines(const Map &map, const std::vector<std::string> &groups,
                         const std::string &need_text, const AppNeed &need) {
  // A refusal's advice depends on what the refused command loaded, which only module-check is
  // told: the table holds warnings alone.
  if (map.policy.on_module_mismatch == OnMismatch::error) return "";
  ModuleScene envmodules;
  envmodules.system = ModuleSystemKind::envmodules;
  const std::vector<std::size_t> advised = advice(map, need, envmodules, Toolchain::none);
  for (Toolchain t : {Toolchain::easybuild, Toolchain::spack})
    if (advice(map, need, envmodules, t) != advised) return "";
  // Nor when a module advised sits behind parents: whether they are loaded decides the advice.
  for (std::size_t i : advised)
    if (!map.cudnn[i].load_first.empty()) return "";
  // Environment Modules' words with the swap's own word marked: both hooks read the table.
  const std::string swap = "module switch " + kModuleMark + " ",
                    marked = "module " SITE_SWAP_MARK " " + kModuleMark + " ";
  std::string out;
  for (std::size_t g = 0; g < groups.size(); ++g)
    if (std::optional<std::string> text = misfit_after_app(map, groups[g], need, kModuleMark, {})) {
      // The mark as the hook finds it, not as a shell word (the names it stands for need none).
      std::string fix = fix_text(map, need, advised, kModuleMark, envmodules);
      const std::string word = shell_word(kModuleMark);
      for (std::size_t at = 0; (at = fix.find(word, at)) != std::string::npos;
           at += kModuleMark.size())
        fix.replace(at, word.size(), kModuleMark);
      *text += fix;
      for (std::size_t at = 0; (at = text->find(swap, at)) != std::string::npos;
           at += marked.size())
        text->replace(at, swap.size(), marked);
      out.append("W\t")
          .append(std::to_string(g))
          .append("\t")
          .append(need_text)
          .append("\t")
          .append("warning")
          .append("\t")
          .append(*text)
          .append("\n");
    }
  return out;
}

// The needs decided in advance, as the hooks spell them ("5.1", "8.9,cuda=12", "9"): each
// release's major alone, x.y and full version, with and without its CUDA major.
std::vector<std::pair<std::string, AppNeed>> decided_needs(const Map &map) {
  std::vector<std::pair<std::string, AppNeed>> needs;
  for (const Installed &e : map.cudnn) {
    for (const Version &v : {Version{e.version.major, {}, {}, {}},
                             Version{e.version.major, e.version.minor, {}, {}}, e.version}) {
      needs.push_back({to_string(v), {"", v, std::nullopt}});
      if (e.cuda)
        needs.push_back(
            {to_string(v) + ",cuda=" + std::to_string(e.cuda->major), {"", v, e.cuda->major}});
    }
  }
  std::sort(needs.begin(), needs.end(),
            [](const auto &a, const auto &b) { return a.first < b.first; });
  needs.erase(std::unique(needs.begin(), needs.end(),
                          [](const auto &a, const auto &b) { return a.first == b.first; }),
              needs.end());
  return needs;
}

// The misfits table's size beyond which it takes no more needs: the hook reads it whole on a
// misfit, and past this starting module-check costs less (1,000 releases would take gigabytes).
constexpr std::size_t kMisfitsBudget = std::size_t(1) << 20;

}  // namespace

Parsed<AppNeed> parse_app_need(std::string_view text) {
  const std::size_t eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0)
    return Parsed<AppNeed>::fail(quoted(text) +
                                 " is not MODULE=VERSION[,cuda=N], e.g. tensorflow/1.0=5.1");
  AppNeed a;
  a.module = std::string(trim(text.substr(0, eq)));
  // Every finding starts with it, one line each: a line break in it would forge a second.
  if (printable(a.module) != a.module)
    return Parsed<AppNeed>::fail(quoted(a.module) + ": no module name holds a control character");
  const std::vector<std::string_view> parts = split(text.substr(eq + 1), ',');
  const Parsed<Version> v = parse_required(parts[0]);
  if (!v) return Parsed<AppNeed>::fail(a.module + ": " + v.error);
  a.cudnn = *v;
  for (std::size_t i = 1; i < parts.size(); ++i) {
    const std::string_view p = trim(parts[i]);
    const Parsed<Version> cuda =
        p.starts_with("cuda=") ? parse_cuda(p.substr(5)) : Parsed<Version>::fail("");
    if (!cuda)
      return Parsed<AppNeed>::fail(a.module + ": " + quoted(p) + " is not cuda=N, e.g. cuda=12");
    a.cuda_major = cuda->major;
  }
  return {a, {}};
}

std::vector<ModuleFinding> check_loaded_modules(const Map &map, const std::vector<AppNeed> &apps,
                                                const ModuleScene &scene,
                                                const std::vector<Installed> &gone) {
  std::vector<ModuleFinding> out;
  ModuleScene checked = scene;
  checked.refused = map.policy.on_module_mismatch == OnMismatch::error;
  const auto loaded = [&](const std::string &m) {
    return std::any_of(scene.loaded.begin(), scene.loaded.end(),
                       [&](const LoadedModule &l) { return l.name == m; });
  };
  const auto fix = [&](const AppNeed &a, const std::string &m) {
    return shared_fix(map, apps, a, advice(map, a, checked, app_toolchain(scene, a.module)), m,
                      checked);
  };
  const std::vector<std::string> present = map_modules(map);
  for (const std::string &m : present) {
    if (!loaded(m)) continue;
    for (const AppNeed &a : apps)
      if (const std::optional<std::string> text = misfit_after_app(map, m, a, m, scene.loaded))
        out.push_back({checked.refused, a.module + *text + fix(a, m)});
  }
  // A loaded module whose every place is gone was judged by the release the map names, and then,
  // left out with its places, not at all (helper 105 r01: silent beside a need of 5.1).
  for (const Installed &e : gone) {
    if (e.module.empty() || !loaded(e.module) ||
        std::find(present.begin(), present.end(), e.module) != present.end())
      continue;
    for (const AppNeed &a : apps)
      out.push_back({checked.refused, a.module + " was built with " + need_text(a) + " but " +
                                          e.module + " provides none: " + e.lib +
                                          " holds no cuDNN library (removed?). " +
                                          fix(a, e.module)});
  }
  return out;
}

std::string format_fits_table(const Map &map, const FileStamp &stamp) {
  std::string out = stamp_line(TableKind::fits, stamp);
  const std::vector<std::pair<std::string, AppNeed>> needs = decided_needs(map);
  for (const auto &n : needs) out += "N\t" + n.first + "\n";
  for (const std::string &m : map_modules(map)) {
    if (name_in_two_branches(map, m)) continue;  // not listed: the hooks ask module-check
    out += "M\t" + m + "\n";
    for (const auto &[text, need] : needs)
      // A module fits when every release the map lists under its name does.
      // (need captured by name: clang before 16, which builds the fuzz target, cannot capture a
      // structured binding.)
      if (std::none_of(map.cudnn.begin(), map.cudnn.end(), [&, &need = need](const Installed &e) {
            return e.module == m && misfit(map, e, need);
          }))
        out.append("F\t").append(m).append("\t").append(text).append("\n");
  }
  return out.append(table_end());
}

std::string format_misfits_table(const Map &map, const FileStamp &stamp) {
  std::string out = stamp_line(TableKind::misfits, stamp);
  std::vector<std::string> groups;  // each group's first module
  for (const auto &[m, g] : module_groups(map, groups))
    // The hooks put the name back as it is: one the advice must quote is left to module-check,
    // as is one whose release depends on the loaded parents.
    if (shell_word(m) == m && !name_in_two_branches(map, m))
      out.append("G\t").append(m).append("\t").append(std::to_string(g)).append("\n");
  for (const auto &[text, need] : decided_needs(map)) {
    const std::string lines = misfit_lines(map, groups, text, need);
    if (out.size() + lines.size() > kMisfitsBudget) break;
    out += lines;
  }
  return out.append(table_end());
}

}  // namespace cudnn_compat
