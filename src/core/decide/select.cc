// The shim's decision for a request of a cuDNN main library: keep what the loader would take when
// it fits, else the best fitting installed release whose library confirms its own version.
#include "decide.h"
#include "text.h"

#include <algorithm>
#include <map>

namespace cudnn_compat {
namespace {

constexpr const char *kPrefix = "cudnn-compat: ";

std::string describe_need(const SelectInputs &in) {
  if (!in.need.cudnn) {
    const std::optional<int> major = wanted_major(in.need, in.requested);
    return (major ? "any cuDNN " + std::to_string(*major) : "any cuDNN") + node_words(in.need.node);
  }
  std::string s = "needs " + to_string(*in.need.cudnn);
  if (in.need.below) s += " below " + to_string(*in.need.below);
  if (in.need.cuda_major) s += " for CUDA " + std::to_string(*in.need.cuda_major);
  s += " from " + in.need.source;
  for (const Need &other : in.need.also)
    s += " and " + (other.cudnn ? to_string(*other.cudnn) : std::string("any")) + " from " +
         other.source;
  return s + node_words(in.need.node);
}

// At most `most` of items, then how many more: a site's thousand releases make no one-line message.
std::string capped(const std::vector<std::string> &items, std::size_t most, const char *separator) {
  std::string s = join(
      {items.begin(), items.begin() + std::ptrdiff_t(std::min(most, items.size()))}, separator);
  if (items.size() > most)
    s += separator + std::string("and ") + std::to_string(items.size() - most) + " more";
  return s;
}

// `reported`: what the libraries of the entries probed said where it was not what the map (or a
// wheel's METADATA) says: the list names the release that is installed, not the claim.
std::string installed_list(const Map &map, const std::map<std::size_t, Version> &reported) {
  std::vector<std::string> items;
  std::string last;  // the release of the item before
  for (std::size_t i = 0; i < map.cudnn.size(); ++i) {
    const Installed &e = map.cudnn[i];
    const auto said = reported.find(i);
    // A retired or withheld place (a hidden module) is not handed over: the list says so, not just
    // that it is installed, or a user would try to load it (helper 95).
    const std::string where = (e.module.empty() ? std::string(to_string(source_of(e))) : e.module) +
                              (e.retired ? ", retired on " + e.retire_after : "") +
                              (e.hand_out ? "" : ", not handed out");
    const std::string release = to_string(said != reported.end() ? said->second : e.version);
    // Another place of the release before it, unless its library says another release: inside
    // the same parentheses, so each place keeps its own words (helper 97).
    if (e.joined && !items.empty() && release == last)
      items.back().insert(items.back().size() - 1, "; " + where);
    else
      items.push_back(release + " (" + where + ")");
    last = release;
  }
  return items.empty() ? "none" : capped(items, 8, ", ");
}

// The cases decided before anything is probed: a path that does not exist, a name of another
// major than the requirement.
std::optional<Selection> settled_early(const SelectInputs &in, const std::string &need) {
  // A path is the program's own choice: a load that would fail stays a failing load.
  if (in.name.find('/') != std::string::npos && !in.loader) return Selection{};
  // A name that carries a major is only served by that major (fit() refuses every release).
  const std::optional<int> asked =
      in.requested.version ? std::optional<int>(in.requested.version->major) : std::nullopt;
  // Said only where the loader finds that name: a process that tries several names in turn
  // (libcudnn.so.10, then .9) fails the others as it would, unsaid (helper 92: a probe of .10
  // under a requirement of 9.1 was told to require cuDNN 10).
  if (const std::optional<std::string> conflict = major_conflict(in.need, asked)) {
    Selection refused{{}, {}, Outcome::refused};
    if (in.loader)
      refused.say.push_back(kPrefix + in.name + ": " + need + ", but " + *conflict +
                            "; loading as usual (the requirement should be the cuDNN " +
                            std::to_string(*asked) + " release the program was built with)");
    return refused;
  }
  // A node whose GPUs could not be learnt: any choice would be a guess.
  if (in.need.node && !in.need.node->problem.empty())
    return Selection{{},
                     {kPrefix + in.name + ": this node's GPUs and driver are not known (" +
                      in.need.node->problem + "); loading as usual"}};
  return std::nullopt;
}

// The need in short, for the report: "rule pytorch, needs 9.1.0 from the pin of torch 2.6.0: ...".
std::string how(const SelectInputs &in) {
  std::string s = "rule " + std::string(rule_name(in.need.rule));
  if (in.need.cudnn) s += ", needs " + to_string(*in.need.cudnn) + " from " + in.need.source;
  for (const Need &other : in.need.also) s += " and " + other.source;
  return s;
}

// What the loader would take, probed (checked): kept when it fits (its own major included: a
// libcudnn.so.5 that is a cuDNN 6 does not fit a request for cuDNN 5). Returns why not otherwise.
std::optional<std::string> loader_misfit(const SelectInputs &in, const SelectIo &io,
                                         const LibraryCheck &checked, const std::string &need,
                                         Selection &out) {
  if (!in.loader) return "the loader finds no " + in.name;
  if (!checked.probe) return no_answer(in.loader->path, checked) + " (on " + in.loader->from + ")";
  const Probe &p = *checked.probe;
  const Verdict v = fit(in.need, wanted_major(in.need, in.requested), p.version, p.cuda, Words::yes,
                        io.code ? io.code(in.loader->path) : ReleaseCode{});
  out.loader_verdict = v;
  if (!v.compatible)
    return to_string(p.version) + " on " + in.loader->from + " does not fit: " + v.reason;
  out.source = in.loader_source;
  out.how = how(in);
  // The release that fits is handed over where it was probed when the loader reaches it by
  // another path (a link in a directory of other sub-libraries: its family would come from
  // there), whichever path that is: the fast path does the same.
  if (p.file != in.loader->path) out.use = p.file;
  if (in.debug)
    out.notes.push_back(kPrefix + in.name + " -> " + out.use.value_or(in.loader->path) +
                        (out.use ? " (the release the loader finds at " + in.loader->path +
                                       ", at the path its family was probed at; "
                                 : " as the loader finds it (") +
                        need + "; " + to_string(p.version) + " (" +
                        std::string(to_string(in.loader_source)) + ") on " + in.loader->from +
                        " fits: " + v.reason + ")");
  return std::nullopt;
}

// Whether the map lists a release of the major whose library is here: one that does not fit is
// a failed load the process's user must hear of; a map's release whose directory this node lacks
// is none.
bool lists_major(const SelectInputs &in, const SelectIo &io, std::optional<int> major) {
  if (!in.map || !major) return false;
  return std::any_of(in.map->cudnn.begin(), in.map->cudnn.end(), [&](const Installed &e) {
    return e.hand_out && e.version.major == *major && io.find_file(e.lib, in.requested, *major);
  });
}

// The sub-libraries the place of file lacks (SelectIo::lacks; none where the edge does not ask).
std::vector<std::string> lacks_of(const SelectIo &io, const std::string &file, const Version &v) {
  return io.lacks ? io.lacks(file, v) : std::vector<std::string>{};
}

// What the search of the map's releases met besides the one it hands over.
struct Search {
  std::vector<std::string> passed_over;     // releases that do not load, lie or do not fit
  bool unloadable = false;                  // one of them does not load or could not be checked
  std::string not_run;                      // why one of them could not be checked at all
  bool any_file = false;                    // a release of the map has its library here
  std::size_t chosen = 0;                   // the entry of the one handed over
  std::optional<Version> reports;           // what its library reports
  bool map_lied = false;                    // an entry of the map's own is not what it says
  std::map<std::size_t, Version> reported;  // entries whose library says otherwise: what it says
  std::optional<std::size_t> missing;       // the first entry that fits by the map's word, gone
};

// On the way to "nothing fits": the releases of the major the map's word passed over, each as
// its library reports it (as_library_reports, as the decision table holds them), and the best of
// those that fit then. Only this path asks them: a map that names its releases right costs
// nothing more, and with a fresh table their probes are its.
std::optional<std::string> misnamed_release(const SelectInputs &in, const Need &need,
                                            const SelectIo &io, std::optional<int> major,
                                            const std::vector<std::size_t> &asked, Search &s) {
  if (!major) return std::nullopt;
  Map reported = *in.map;
  std::map<std::size_t, std::string> files;
  for (std::size_t i = 0; i < reported.cudnn.size(); ++i) {
    Installed &e = reported.cudnn[i];
    const bool ask = e.hand_out && e.version.major == *major &&
                     std::find(asked.begin(), asked.end(), i) == asked.end();
    const std::optional<std::string> file =
        ask ? io.find_file(e.lib, in.requested, *major) : std::nullopt;
    const std::optional<Probe> p = file ? io.probe(*file).probe : std::nullopt;
    // Only a release the map misnames is ranked again: the rest were asked already, or fit by no
    // word (hand_out is what rank() goes by).
    e.hand_out = stands_as_reported(e, p) && !same_release(p->version, e.version) &&
                 lacks_of(io, *file, p->version).empty();
    if (!e.hand_out) continue;
    s.any_file = true;
    s.reported.emplace(i, p->version);
    e = as_library_reports(e, p);
    files.emplace(i, *file);
  }
  for (std::size_t i : rank(reported, need, in.requested)) {
    s.chosen = i;
    s.reports = reported.cudnn[i].version;
    return files.at(i);
  }
  return std::nullopt;
}

// The best fitting release for need that says so itself; a map that lies is passed over, and
// said so.
std::optional<std::string> best_release(const SelectInputs &in, const Need &need,
                                        const SelectIo &io, Search &s) {
  const std::optional<int> major = wanted_major(need, in.requested);
  const std::vector<std::size_t> asked = rank_asking_libraries(*in.map, need, in.requested);
  for (std::size_t i : asked) {
    const Installed &e = in.map->cudnn[i];
    std::optional<std::string> file =
        io.find_file(e.lib, in.requested, major.value_or(e.version.major));
    if (!file) {
      if (!s.missing) s.missing = i;
      continue;
    }
    s.any_file = true;
    const LibraryCheck c = io.probe(*file);
    if (!c.probe) {
      // The loader's own file is said once, as the loader's.
      if (!in.loader || *file != in.loader->path) s.passed_over.push_back(no_answer(*file, c));
      s.unloadable = true;
      if (s.not_run.empty()) s.not_run = c.not_run;
      continue;
    }
    // A place handed over is its directory: one that lacks a sub-library of its family fails at
    // cuDNN's first handle (helper 111: handed out under prefer = "oldest").
    if (const std::vector<std::string> lacks = lacks_of(io, *file, c.probe->version);
        !lacks.empty()) {
      s.passed_over.push_back(*file + " (" + to_string(e.version) + "): " + not_whole(e, lacks));
      s.unloadable = true;
      continue;
    }
    const Verdict v =
        fit(need, major, c.probe->version, release_cuda(e, c.probe), Words::yes, e.code);
    if (v.compatible) {
      s.chosen = i;
      s.reports = c.probe->version;
      return file;
    }
    // A release that is what the map says but not built for the CUDA needed is no liar.
    const bool lied = !same_release(c.probe->version, e.version);
    s.map_lied = s.map_lied || (lied && e.claimed_in.empty());
    if (lied) s.reported.emplace(i, c.probe->version);
    s.passed_over.push_back(!lied ? *file + " (" + to_string(e.version) + "): " + v.reason
                                  : claimed_by(e) + to_string(e.version) + " but " + *file +
                                        " reports " + to_string(c.probe->version));
  }
  return misnamed_release(in, need, io, major, asked, s);
}

// No release serves every consumer in the process (one family per process): the one that asks
// now gets its own - the loader's pick when that serves it - and one line names both needs.
Selection serve_own(const SelectInputs &in, const SelectIo &io, Selection out) {
  SelectInputs own = in;
  own.need.also.clear();
  Selection mine = select_library(own, io);
  const std::string where = mine.use ? *mine.use : in.loader ? in.loader->path : in.name;
  out.use = mine.use;
  out.outcome = mine.outcome;
  out.release = mine.release;
  out.source = mine.source;
  out.how = how(in);
  out.say = {kPrefix + in.name + " -> " + where + ": no installed cuDNN serves both " +
             describe(own.need, std::nullopt) + " and " +
             describe(in.need.also.front(), std::nullopt) +
             " (one cuDNN family per process); took the one for the first"};
  return out;
}

// The file handed over, with its source and release as its library reports it: a warning when a
// release before it does not load now, else a note for debugging. One the map misnames, or whose
// library does not fit, is passed over without a word, as the decision table (which holds each as
// its library reports it) does: the same decision says the same with and without the table (an
// outside tester's finding); map validate warns of the map's words.
void handed_over(const SelectInputs &in, const std::string &need, const std::string &note,
                 const Search &found, Selection &out) {
  const Installed &e = in.map->cudnn[found.chosen];
  out.source = source_of(e);
  out.how = how(in);
  const std::string lies =
      found.passed_over.empty() ? "" : "; " + capped(found.passed_over, 3, "; ");
  if (!in.debug && !found.unloadable) return;
  const std::string release =
      found.reported.contains(found.chosen)
          ? to_string(*found.reports) + ", " + claimed_by(e) + to_string(e.version)
          : to_string(e.version);
  (found.unloadable ? out.say : out.notes)
      .push_back(kPrefix + in.name + " -> " + *out.use + " (" +
                 std::string(to_string(source_of(e))) + " " + release + "; " + need + "; " + note +
                 lies + (found.map_lied ? "; run `cudnn-compat map validate --probe`" : "") + ")");
}

// No cuDNN of this major here, on the loader's path or in the map: the ordinary load fails on its
// own, unsaid (frameworks try several names in turn) - unless a map is there and the requirement
// is of this very major: the process needs it then, and only this line says none is installed
// (a requirement of 6.0 failed its load of libcudnn.so.6 in silence).
bool unsaid_absence(const SelectInputs &in, const SelectIo &io, const Search &found) {
  const std::optional<int> major = wanted_major(in.need, in.requested);
  const bool required = in.map && in.need.cudnn && major && in.need.cudnn->major == *major;
  return !in.loader && !found.any_file && !required && !lists_major(in, io, major);
}

}  // namespace

std::string no_answer(const std::string &file, const LibraryCheck &c) {
  if (!c.not_run.empty()) return file + " could not be checked (" + c.not_run + ")";
  return file + " does not load" + (c.failed.empty() ? "" : " (" + c.failed + ")");
}

std::string claimed_by(const Installed &e) {
  if (e.claimed_in.empty()) return "the map says ";
  return e.source == Source::conda ? "its conda record (conda-meta) says "
                                   : "its wheel's METADATA says ";
}

std::string node_words(const std::optional<NodeFacts> &n) {
  if (!n || (n->gpus.empty() && !n->driver_cuda)) return "";
  std::string s = n->gpus.empty() ? "" : " on compute capability " + gpu_list(n->gpus);
  if (n->driver_cuda) s += " with a CUDA " + to_string(*n->driver_cuda) + " driver";
  return s + " (" + n->source + ")";
}

std::string release_to_ask_for(const Need &need, int major) {
  std::string s = need.cudnn ? "cuDNN " + acceptable_releases(need.rule, *need.cudnn)
                             : "a cuDNN " + std::to_string(major) + " release";
  if (need.cuda_major) s += " built for CUDA " + std::to_string(*need.cuda_major);
  const std::string node = node_words(need.node);
  return node.empty() ? s : s + " that runs" + node;
}

std::string_view to_string(Outcome o) {
  switch (o) {
    case Outcome::fit:
      return "fit";
    case Outcome::redirected:
      return "redirected";
    case Outcome::refused:
      return "refused";
    case Outcome::undecided:
      break;
  }
  return "undecided";
}

Verdict serves(const Need &need, std::optional<int> major, const Probe &p) {
  return fit(need, major, p.version, p.cuda);
}

std::string replacing_install(const Map &map, const Need &need) {
  const Source kind = need.install.starts_with("conda") ? Source::conda : Source::wheel;
  const auto held = [&](const Need &n) {
    return std::any_of(map.cudnn.begin(), map.cudnn.end(), [&](const Installed &e) {
      return source_of(e) == kind && fit(n, std::nullopt, e.version, e.cuda).compatible;
    });
  };
  if (held(need)) return reinstall(need.install);
  Need any_cuda = need;
  any_cuda.cuda_major.reset();
  if (kind == Source::conda && need.cuda_major && held(any_cuda))
    return need.install + " 'cuda-version=" + std::to_string(*need.cuda_major) + "'";
  return need.install;
}

// Where a map was read and nothing is handed over: the ordinary load, and what to do about it.
std::string nothing_handed_over(const SelectInputs &in, const std::string &need,
                                const std::string &loader_note, const Search &found) {
  const std::string lies =
      found.passed_over.empty() ? "" : "; " + capped(found.passed_over, 3, "; ");
  // A release that may fit and could not be checked is no reason to ask the admins for anything.
  // A place the map withholds that would fit is named: "nothing installed fits" would not be the
  // truth.
  std::string line = kPrefix + in.name + ": " + need + ", but " + loader_note + lies;
  if (!found.not_run.empty()) return line + "; loading as usual";
  // A release that would fit by the map's word and whose directory no longer holds the library
  // (a module removed after the map was checked): "nothing fits" would send the user to ask for
  // what the map lists (helper 94). The admins' map is what is out of date.
  if (found.missing) {
    const Installed &e = in.map->cudnn[*found.missing];
    return line + "; " + to_string(e.version) + (e.module.empty() ? "" : " (" + e.module + ")") +
           " would fit, but " + e.lib + " holds no " + in.name +
           "; loading as usual. The map is out of date: ask the admins to run cudnn-compat map "
           "validate";
  }
  std::string held;
  for (std::size_t i : withheld_fits(*in.map, in.need, wanted_major(in.need, in.requested)))
    held += (held.empty() ? "; the map withholds " : ", ") + to_string(in.map->cudnn[i].version);
  line += "; no " + std::string(held.empty() ? "installed cuDNN" : "cuDNN the map hands out") +
          " fits (installed: " + installed_list(*in.map, found.reported) + held +
          (held.empty() ? "" : ", which would") + "); loading as usual";
  // A pin's need is met in the user's own environment, without the admins (helper 94); where the
  // environment already holds a cuDNN of its kind, the install must replace it: pip answers a
  // broken wheel of the pinned version "already satisfied" (helper 109).
  if (in.need.cudnn && !in.need.install.empty())
    line += ". In its environment: " + replacing_install(*in.map, in.need) +
            "; or ask the admins for " + release_to_ask_for(in.need, in.need.cudnn->major);
  else if (in.need.cudnn)
    line += ". Ask the admins for " + release_to_ask_for(in.need, in.need.cudnn->major);
  return line;
}

Selection select_library(const SelectInputs &in, const SelectIo &io) {
  const std::string need = describe_need(in);
  if (std::optional<Selection> early = settled_early(in, need)) return *early;
  Selection out;
  const LibraryCheck loaded = in.loader ? io.probe(in.loader->path) : LibraryCheck{};
  // The loader's own choice could not be asked: nothing is known, the ordinary load stands.
  if (loaded.probe)
    out.loader_release = loaded.probe->version, out.loader_cuda = loaded.probe->cuda;
  if (in.loader && !loaded.probe && !loaded.not_run.empty())
    return {{},
            {kPrefix + in.name + ": " + need + ", but " + no_answer(in.loader->path, loaded) +
             "; loading as usual"}};
  const std::optional<std::string> loader_note = loader_misfit(in, io, loaded, need, out);
  if (!loader_note) {
    out.outcome = Outcome::fit;
    out.release = out.loader_release;  // handed over at the path it was probed at, if another
    return out;
  }
  Search found;
  if (in.map) out.use = best_release(in, in.need, io, found);
  if (in.map && !out.use && !in.need.also.empty()) return serve_own(in, io, out);
  out.release = found.reports;
  out.outcome = out.use                 ? Outcome::redirected
                : found.not_run.empty() ? Outcome::refused
                                        : Outcome::undecided;
  if (unsaid_absence(in, io, found)) return out;
  if (!in.map) {
    if (in.quiet_without_map && !in.debug) return out;
    out.say.push_back(kPrefix + in.name + ": " + need + ", but " + *loader_note +
                      "; no version map to find another (" + in.map_problem +
                      "); loading as usual");
    return out;
  }
  if (out.use) {
    handed_over(in, need, *loader_note, found, out);
    return out;
  }
  out.say.push_back(nothing_handed_over(in, need, *loader_note, found));
  return out;
}

}  // namespace cudnn_compat
