// Which installed release serves a request.
#include "decide.h"
#include "text.h"

#include <algorithm>

namespace cudnn_compat {

std::string describe(const Need &need, std::optional<int> major) {
  std::string s = need.cudnn ? "cuDNN " + to_string(*need.cudnn)
                  : major    ? "any cuDNN " + std::to_string(*major)
                             : "any cuDNN";
  if (need.below) s += " below " + to_string(*need.below);
  if (need.cuda_major) s += " for CUDA " + std::to_string(*need.cuda_major);
  if (need.cudnn) s += " under rule " + std::string(rule_name(need.rule));
  if (!need.source.empty()) s += " (from " + need.source + ")";
  for (const Need &other : need.also) s += " and " + describe(other, major);
  return s;
}

// A name that carries a major is only ever served by that major; a requirement of another major
// then fits nothing.
std::optional<int> wanted_major(const Need &need, const LibraryName &requested) {
  if (requested.version) return requested.version->major;
  if (need.cudnn) return need.cudnn->major;
  return std::nullopt;
}

namespace {

Need without_cuda(Need need) {
  need.cuda_major.reset();
  for (Need &other : need.also) other = without_cuda(std::move(other));
  return need;
}

// The entries the map hands out that fit, best first.
std::vector<std::size_t> ranked(const Map &map, const Need &need, const LibraryName &requested) {
  const std::optional<int> major = wanted_major(need, requested);
  std::vector<std::size_t> out;
  // Only a place the map hands out: a hidden module is how a site withdraws a build.
  for (std::size_t i = 0; i < map.cudnn.size(); ++i) {
    const Installed &e = map.cudnn[i];
    if (e.hand_out && entry_fits(e, need, major, Words::no).compatible) out.push_back(i);
  }
  // Stable: between equal releases (x.y.z) the admin's order in the map decides, and the map's
  // places come before the active Python environment's. A build number (a wheel's 9.20.0.48,
  // EasyBuild's 8.9.7.29) is no newer release: ranked by it, a process in a virtualenv got the
  // wheel from the engine and the module from the decision table, which knows the map alone.
  auto release = [](Version v) {
    v.build.reset();
    return v;
  };
  std::stable_sort(out.begin(), out.end(), [&](std::size_t a, std::size_t b) {
    const int order = compare(release(map.cudnn[a].version), release(map.cudnn[b].version));
    return map.policy.prefer == Prefer::newest ? order > 0 : order < 0;
  });
  return out;
}

}  // namespace

std::vector<std::size_t> rank(const Map &map, const Need &need, const LibraryName &requested) {
  return ranked(map, need, requested);
}

std::vector<std::size_t> rank_asking_libraries(const Map &map, const Need &need,
                                               const LibraryName &requested) {
  return ranked(map, without_cuda(need), requested);
}

bool library_spoke(const std::optional<Probe> &p) {
  return p && p->source == ProbeSource::library;
}

std::optional<Version> release_cuda(const Installed &e, const std::optional<Probe> &p) {
  return library_spoke(p) && p->cuda ? p->cuda : e.cuda;
}

bool stands_as_reported(const Installed &e, const std::optional<Probe> &p) {
  return library_spoke(p) && p->version.major == e.version.major;
}

std::string not_whole(const Installed &e, const std::vector<std::string> &lacks) {
  const Source from = source_of(e);
  return "its directory lacks " + join(lacks, ", ") +
         ", which its own libraries load (cuDNN would fail at its first handle: "
         "CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED); " +
         (from == Source::wheel   ? "reinstall the wheel whole: pip install --force-reinstall, in "
                                    "its environment"
          : from == Source::conda ? "reinstall the package whole: conda install --force-reinstall "
                                    "cudnn, in its environment"
                                  : "install the release whole there again");
}

Installed as_library_reports(Installed e, const std::optional<Probe> &p) {
  if (!library_spoke(p)) return e;
  e.cuda = release_cuda(e, p);
  // The map's build number (EasyBuild's 8.9.7.29) stays where the release is the library's.
  if (!same_release(p->version, e.version)) e.version = p->version;
  return e;
}

std::vector<std::size_t> withheld_fits(const Map &map, const Need &need, std::optional<int> major) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < map.cudnn.size(); ++i)
    if (!map.cudnn[i].hand_out && entry_fits(map.cudnn[i], need, major, Words::no).compatible)
      out.push_back(i);
  return out;
}

std::vector<std::size_t> relative_fits(const Map &map, const Need &need, std::optional<int> major) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < map.cudnn.size(); ++i) {
    const Installed &e = map.cudnn[i];
    if (!is_absolute_lib(e) && fit(need, major, e.version, e.cuda, Words::no, e.code).compatible)
      out.push_back(i);
  }
  return out;
}

// "2 releases in 3 places are in MAP": releases as map validate counts them; the active Python
// environment's places (a wheel's, a conda env's) are said apart, as no entry of the map.
std::string held_text(const Map &map) {
  Map own = map;
  std::erase_if(own.cudnn, [](const Installed &e) { return !e.claimed_in.empty(); });
  const std::size_t releases = release_count(own), places = own.cudnn.size();
  const std::size_t active = map.cudnn.size() - places;
  return std::to_string(releases) + " release" + (releases == 1 ? "" : "s") +
         (places == releases ? "" : " in " + std::to_string(places) + " places") +
         (releases == 1 ? " is" : " are") + " in " + map.path +
         (active ? ", and " + std::to_string(active) + " place" + (active == 1 ? "" : "s") +
                       " of the active Python environment"
                 : "");
}

Choice choose(const Map &map, const Need &need, const LibraryName &requested) {
  const std::optional<int> major = wanted_major(need, requested);
  Choice choice;
  choice.ranked = rank(map, need, requested);
  for (std::size_t i = 0; i < map.cudnn.size(); ++i) {
    const Installed &e = map.cudnn[i];
    Verdict v = entry_fits(e, need, major);
    if (v.compatible && !e.hand_out)
      v = {false, "it fits, but the map does not hand it out (hand_out = false" +
                      std::string(hidden_module(e.module) ? ": a hidden module" : "") +
                      "); only a process whose loader finds it keeps it"};
    choice.considered.push_back({i, v.compatible, v.reason});
  }
  if (choice.ranked.empty()) {
    const std::vector<std::size_t> held = withheld_fits(map, need, major);
    const std::vector<std::size_t> relative = relative_fits(map, need, major);
    choice.reason = (!held.empty()      ? "no cuDNN the map hands out fits "
                     : relative.empty() ? "no installed cuDNN fits "
                                        : "no cuDNN the map can hand out fits ") +
                    describe(need, major) + "; " + held_text(map);
    for (std::size_t i = 0; i < held.size(); ++i) {
      const Installed &e = map.cudnn[held[i]];
      choice.reason += (i ? ", " : "; it withholds one that fits (hand_out = false): ") +
                       to_string(e.version) + (e.module.empty() ? "" : " (" + e.module + ")");
    }
    for (std::size_t i = 0; i < relative.size(); ++i) {
      const Installed &e = map.cudnn[relative[i]];
      choice.reason += (i ? ", " : "; one would fit but its lib is a relative path: ") +
                       to_string(e.version) + " (lib \"" + e.lib + "\")";
    }
    return choice;
  }
  const Installed &e = map.cudnn[choice.ranked.front()];
  const std::size_t n = choice.ranked.size();
  choice.reason = "cuDNN " + to_string(e.version) +
                  (e.module.empty() ? "" : " (" + e.module + ")") + " is the " +
                  (map.policy.prefer == Prefer::newest ? "newest" : "oldest") + " of " +
                  std::to_string(n) + " installed release" + (n == 1 ? "" : "s") + " that fit " +
                  describe(need, major);
  return choice;
}

Resolved resolve_file(const Map &map, const Choice &choice, const LibraryName &requested,
                      const std::string &name, const FindFile &find_file) {
  Resolved out;
  for (std::size_t index : choice.ranked) {
    const Installed &e = map.cudnn[index];
    if (const std::optional<std::string> file = find_file(e.lib, requested, e.version.major)) {
      out.entry = &e;
      out.file = *file;
      out.reason =
          out.skipped.empty()
              ? choice.reason
              : "cuDNN " + to_string(e.version) + (e.module.empty() ? "" : " (" + e.module + ")") +
                    " is the next of " + std::to_string(choice.ranked.size()) +
                    " installed releases that fit, after " + std::to_string(out.skipped.size()) +
                    " whose directory holds no " + name;
      return out;
    }
    out.skipped.push_back(e.lib + " (listed for cuDNN " + to_string(e.version) +
                          ") holds no file for " + name);
  }
  return out;
}

}  // namespace cudnn_compat
