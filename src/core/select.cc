// The shim's decision for a request of a cuDNN main library: keep what the loader would take when
// it fits, else the best fitting installed release whose library confirms its own version.
#include "cudnn_compat.h"

namespace cudnn_compat {
namespace {

constexpr const char *kPrefix = "cudnn-compat: ";

std::string describe_need(const SelectInputs &in) {
  if (!in.need.cudnn) {
    const std::optional<int> major = wanted_major(in.need, in.requested);
    return major ? "any cuDNN " + std::to_string(*major) : "any cuDNN";
  }
  std::string s = "needs " + to_string(*in.need.cudnn);
  if (in.need.cuda_major) s += " for CUDA " + std::to_string(*in.need.cuda_major);
  return s + " from " + in.need.source;
}

std::string installed_list(const Map &map) {
  std::string s;
  for (const Installed &e : map.cudnn) {
    s += s.empty() ? "" : ", ";
    s += to_string(e.version);
    if (!e.module.empty()) s += " (" + e.module + ")";
  }
  return s.empty() ? "none" : s;
}

}  // namespace

Verdict serves(const Need &need, std::optional<int> major, const Probe &p) {
  return fit(need, major, p.version, p.cuda);
}

Selection select_library(const SelectInputs &in, const SelectIo &io) {
  Selection out;
  const std::string need = describe_need(in);

  // An absolute path is the program's own choice: a load that would fail stays a failing load.
  if (in.name.starts_with('/') && !in.loader) return out;
  // A name that carries a major is only served by that major.
  if (in.requested.version && in.need.cudnn && in.need.cudnn->major != in.requested.version->major) {
    const std::string asked = std::to_string(in.requested.version->major);
    out.say.push_back(kPrefix + in.name + ": " + need + ", but the program asks for cuDNN " +
                      asked + " by name, which only a cuDNN " + asked +
                      " can serve; loading as usual (the requirement should be the cuDNN " + asked +
                      " release the program was built with)");
    return out;
  }

  // Nothing required but a major the name carries: the loader's choice cannot be wrong, and
  // needs no probe.
  if (in.loader && !in.need.cudnn && !in.need.cuda_major) {
    if (in.debug)
      out.say.push_back(kPrefix + in.name + " -> " + in.loader->path + " as the loader finds it (" +
                        need + ", on " + in.loader->from + ")");
    return out;
  }

  // What the loader would take: kept when it fits.
  std::string loader_note;
  if (in.loader) {
    const std::optional<Probe> p = io.probe(in.loader->path);
    if (p) {
      const Verdict v = serves(in.need, wanted_major(in.need, in.requested), *p);
      if (v.compatible) {
        if (in.debug)
          out.say.push_back(kPrefix + in.name + " -> " + in.loader->path +
                            " as the loader finds it (" + need + "; " + to_string(p->version) +
                            " on " + in.loader->from + " fits: " + v.reason + ")");
        return out;
      }
      loader_note = to_string(p->version) + " on " + in.loader->from + " does not fit: " + v.reason;
    } else {
      loader_note = in.loader->path + " (on " + in.loader->from + ") does not load";
    }
  } else {
    loader_note = "the loader finds no " + in.name;
  }

  if (!in.map) {
    out.say.push_back(kPrefix + in.name + ": " + need + ", but " + loader_note +
                      "; no version map to find another (" + in.map_problem +
                      "); loading as usual");
    return out;
  }

  // The best fitting release that says so itself: a map that lies is passed over, and said so.
  std::string lies;
  const std::optional<int> major = wanted_major(in.need, in.requested);
  for (std::size_t i : rank(*in.map, in.need, in.requested)) {
    const Installed &e = in.map->cudnn[i];
    const std::optional<std::string> file =
        io.find_file(e.lib, in.requested, major.value_or(e.version.major));
    if (!file) continue;
    const std::optional<Probe> p = io.probe(*file);
    if (!p) {
      lies += "; " + *file + " does not load";
      continue;
    }
    // The library's own CUDA where it tells (cuDNN 6 on), else the map's word for it.
    if (const Verdict v = fit(in.need, major, p->version, p->cuda ? p->cuda : e.cuda);
        !v.compatible) {
      lies += "; the map says " + to_string(e.version) + " but " + *file + " reports " +
              to_string(p->version);
      continue;
    }
    out.use = *file;
    if (in.debug || !lies.empty()) {
      std::string line = kPrefix + in.name;
      line.append(" -> ").append(*file).append(" (").append(need).append("; ").append(loader_note);
      line += lies;
      if (!lies.empty()) line += "; run `cudnn-compat map validate --probe`";
      out.say.push_back(line + ")");
    }
    return out;
  }

  // Nothing fits: the ordinary load, and what to do about it.
  std::string line = kPrefix + in.name + ": " + need + ", but " + loader_note + lies +
                     "; no installed cuDNN fits (installed: " + installed_list(*in.map) +
                     "); loading as usual";
  if (in.need.cudnn)
    line += ". Ask the admins for cuDNN " + acceptable_releases(in.need.rule, *in.need.cudnn);
  out.say.push_back(line);
  return out;
}

}  // namespace cudnn_compat
