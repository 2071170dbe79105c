// Property (issue 27, "Must show"): over thousands of generated maps, needs, rules and loader
// picks, the shim's decision table - read by the shim's own C reader, shim/fast_path.c, compiled
// into this test - the engine (select_library, with the engine's own edges) and resolve give one
// answer: zero disagreements. The maps and libraries are files in a temporary directory, the table
// is written by its one writer, and ld.so.cache is the machine's own (as the shim reads it). The
// seed is printed; CUDNN_COMPAT_SEED=N repeats a run.
#include "cudnn_compat.h"
#include "decision_inputs.h"

extern "C" {
#include "fast_path.h"
#include "search_dirs.h"
}

#include <gtest/gtest.h>

#include <sys/stat.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <set>

namespace cudnn_compat {
namespace {

namespace fs = std::filesystem;

// One generated site: its map (written, validated into a table) and the files it lists.
struct World {
  std::string root, map_path;
  Map map;
  std::map<std::string, Probe> truth;  // what each library file reports (absent: does not load)
  std::vector<std::string> files;      // per entry: its library file ("" when the place lacks it)
  std::vector<std::string> links;      // a link to each entry's file, in a directory of its own
  std::vector<std::string> strays;     // libraries no entry lists
  std::vector<KnownLibrary> known;
};

std::string touch(const std::string &dir, const std::string &name, const std::string &content) {
  fs::create_directories(dir);
  const std::string path = dir + "/" + name;
  std::ofstream(path) << content;  // each its own identity
  return path;
}

Version random_release(std::mt19937 &rng, int major) {
  const int minor = std::uniform_int_distribution(0, 3)(rng);
  const int patch = rng() % 8 == 0 ? 99999 : std::uniform_int_distribution(0, 12)(rng);
  return {major, minor, patch, {}};
}

std::optional<Version> random_cuda(std::mt19937 &rng) {
  if (rng() % 3 == 0) return std::nullopt;
  return Version{std::uniform_int_distribution(10, 12)(rng), 0, {}, {}};
}

Map random_map(std::mt19937 &rng, const std::string &root, World &w) {
  Map map;
  map.policy.rule = all_rules()[rng() % all_rules().size()].rule;
  map.policy.prefer = rng() % 2 ? Prefer::newest : Prefer::oldest;
  const int count = std::uniform_int_distribution(1, 6)(rng);
  std::set<std::pair<std::string, std::string>> seen;  // (version, cuda): listed twice is an error
  for (int i = 0; i < count; ++i) {
    const int major = std::vector<int>{5, 7, 8, 9}[rng() % 4];
    Installed e{random_release(rng, major),
                root + "/r" + std::to_string(i),
                random_cuda(rng),
                "",
                {},
                false};
    if (!seen.insert({to_string(e.version), e.cuda ? to_string(*e.cuda) : ""}).second) continue;
    map.cudnn.push_back(e);
  }
  if (rng() % 5 == 0)
    map.require.push_back({rng() % 2 ? "/opt/app/*" : "/elsewhere/*",
                           Version{map.cudnn[0].version.major, 1, {}, {}},
                           std::nullopt,
                           {}});
  for (const Installed &e : map.cudnn) {
    const std::string soname = "libcudnn.so." + std::to_string(e.version.major);
    // One place in ten lacks its library: the table leaves it out, the engine and resolve skip it.
    const std::string file = rng() % 10 == 0 ? "" : touch(e.lib, soname, e.lib);
    w.files.push_back(file);
    if (!file.empty()) {
      w.truth[file] = Probe{file, e.version, e.cuda, ProbeSource::library, ""};
      const std::string link_dir = e.lib + "-link";
      fs::create_directories(link_dir);
      fs::create_symlink(file, link_dir + "/" + soname);
      w.links.push_back(link_dir + "/" + soname);
    }
  }
  for (int major : {5, 8, 9}) {  // a user's own cuDNN found first, of a random release
    const std::string dir = root + "/stray" + std::to_string(major);
    const std::string file = touch(dir, "libcudnn.so." + std::to_string(major), dir);
    w.truth[file] = Probe{file, random_release(rng, rng() % 4 ? major : major - 1),
                          random_cuda(rng), ProbeSource::library, ""};
    w.strays.push_back(file);
  }
  return map;
}

// A site: the map written and read back, and its tables written by their one writer (the map
// made older first: the writer waits out a map of its own clock tick), read under the contract's
// rule, as the shim and the engine read them.
World make_world(std::mt19937 &rng, const std::string &root) {
  World w;
  w.root = root;
  fs::create_directories(root);
  const Map generated = random_map(rng, root, w);
  w.map_path = root + "/map.toml";
  std::ofstream(w.map_path) << format_map(generated);
  fs::last_write_time(w.map_path, fs::file_time_type::clock::now() - std::chrono::seconds(5));
  const MapLoad load = read_map_file(w.map_path);
  if (!load.map) throw std::runtime_error("a generated map is invalid: " + format_map(generated));
  w.map = *load.map;
  TableFacts facts;
  for (const std::string &file : w.files) {
    facts.probes.push_back(file.empty() ? std::nullopt : std::optional(w.truth.at(file)));
    facts.files.push_back(file.empty() ? std::nullopt : stamp_file(file));
  }
  if (const std::string why = write_job_caches(load, facts); !why.empty())
    throw std::runtime_error(why);
  const TableRead table = read_table(w.map_path, TableKind::decide);
  if (!table.text) throw std::runtime_error("the decision table is not believed: " + table.why);
  w.known = table_libraries(*table.text);
  return w;
}

std::string random_require(std::mt19937 &rng, int major, const World &w) {
  static const char *const odd[] = {" v{M}.1 ",
                                    "{M}.0.100000",
                                    "{M}.1.2.3",
                                    "{M}",
                                    "x",
                                    "",
                                    "{M}.99999.99999",
                                    "{M}.18446744073709551617",
                                    "0{M}.01",
                                    "{M}.0.99999"};
  const int kind = int(rng() % 10);
  if (kind < 3) return "-";  // none
  std::string s;
  if (kind < 4) {
    s = odd[rng() % std::size(odd)];
  } else {
    const Installed &e = w.map.cudnn[rng() % w.map.cudnn.size()];
    const int m = rng() % 8 == 0 ? major + 1 : major;
    // Now and then a minor where only a whole number crosses a release's: Caffe2's 7000 seen
    // from cuDNN 5 (5.20.0), a release of patch 99999 (5.0.99999 is 5.999.99 to the integer rules).
    static const int far[] = {19, 20, 21, 998, 999, 1000, 1001, 1002};
    const bool far_minor = rng() % 6 == 0;
    const int minor = far_minor ? far[rng() % std::size(far)]
                                : std::max(0, *e.version.minor + int(rng() % 3) - 1);
    s = std::to_string(m) + "." + std::to_string(minor);
    if (far_minor && rng() % 2)
      s += "." + std::to_string(rng() % 100);
    else if (rng() % 2)
      s += "." + std::to_string(std::max(0, *e.version.patch + int(rng() % 3) - 1));
  }
  for (std::size_t at; (at = s.find("{M}")) != std::string::npos;)
    s.replace(at, 3, std::to_string(major));
  return s;
}

std::string random_cuda_text(std::mt19937 &rng) {
  static const char *const texts[] = {"-",  "-",    "-",   "-",    "10",     "11",
                                      "12", "12.2", "v12", "1234", "12.2.1", "013"};
  return texts[rng() % std::size(texts)];
}

// What the loader takes for libcudnn.so.<major>: a release's file, a link to one elsewhere,
// nothing, what ld.so.cache or the default directories hold ("system"), or a user's own cuDNN.
std::string random_pick(std::mt19937 &rng, const World &w, int major) {
  const std::string soname = "libcudnn.so." + std::to_string(major);
  std::vector<std::string> of_major[3];
  const std::vector<std::string> *lists[3] = {&w.files, &w.links, &w.strays};
  for (int l = 0; l < 3; ++l)
    for (const std::string &f : *lists[l])
      if (!f.empty() && fs::path(f).filename() == soname) of_major[l].push_back(f);
  const unsigned kind = rng() % 20;
  const std::vector<std::string> &from = of_major[kind < 8 ? 0 : kind < 12 ? 1 : 2];
  if (kind < 15 && !from.empty()) return from[rng() % from.size()];
  return kind % 2 ? "system" : "";
}

// One request: the name, what the process says, and the file the loader takes ("" none; "system"
// for ld.so.cache and the default directories, as the shim finds them).
struct Case {
  int major;
  std::string require, cuda, pick;
};

std::string describe(const World &w, const Case &c) {
  return "map " + w.map_path + " (rule " + std::string(rule_name(w.map.policy.rule)) +
         "), libcudnn.so." + std::to_string(c.major) + ", CUDNN_COMPAT_REQUIRE=" + c.require +
         " CUDNN_COMPAT_CUDA=" + c.cuda + ", the loader takes " +
         (c.pick.empty() ? "nothing" : c.pick);
}

struct Tally {
  long cases = 0, table_keep = 0, table_use = 0, table_unknown = 0, engine_use = 0, bad_need = 0;
  long disagreeing = 0;
  std::vector<std::string> disagreements;  // the first ten
};

// The shim's fast path on the files as they are.
enum fast_answer table_answer(const World &w, const Case &c, const std::string &loader_pick,
                              bool system, std::string &use) {
  const std::string name = "libcudnn.so." + std::to_string(c.major);
  fast_request r{w.map_path.c_str(),
                 c.major,
                 c.require == "-" ? nullptr : c.require.c_str(),
                 c.cuda == "-" ? nullptr : c.cuda.c_str(),
                 nullptr,
                 1,
                 nullptr};
  if (system)
    r.pick_known = system_search(name.c_str(), &r.pick);
  else if (!loader_pick.empty())
    r.pick = loader_pick.c_str();
  const char *chosen = nullptr;
  const enum fast_answer a = fast_decide(&r, &chosen);
  if (a == FAST_USE) use = chosen;
  return a;
}

void check(const World &w, const Case &c, Tally &t) {
  const std::string name = "libcudnn.so." + std::to_string(c.major);
  const LibraryName requested = *parse_library_name(name);
  // The loader's pick, as the engine finds it (ld.so.cache through the shim's own reader).
  const bool system = c.pick == "system";
  std::optional<LoaderHit> loader;
  if (system) {
    LoaderContext only_system;
    only_system.before_cache.emplace();
    loader = loader_search(name, only_system);
  } else if (!c.pick.empty()) {
    loader = LoaderHit{c.pick, "LD_LIBRARY_PATH"};
  }
  const std::string pick = loader ? loader->path : "";
  ++t.cases;

  Asked asked;
  asked.programs = {"/opt/app/bin/python"};
  asked.requested = requested;
  const auto read_env = [&](const char *var) -> std::optional<std::string> {
    const std::string &v = std::string(var) == "CUDNN_COMPAT_REQUIRE" ? c.require : c.cuda;
    return v == "-" || v.empty() ? std::nullopt : std::optional(v);
  };
  const Parsed<Need> need = derive_need(need_inputs(asked, read_env), &w.map);

  // The engine.
  std::optional<std::string> engine;
  if (need) {
    const SelectIo io = engine_io(w.known, &w.map, need->cuda_major.has_value(),
                                  [&](const std::string &file) -> LibraryCheck {
                                    const auto found = w.truth.find(file);
                                    if (found == w.truth.end()) return {};
                                    return LibraryCheck{found->second};
                                  });
    engine = select_library(select_inputs(name, requested, *need, loader, &w.map), io).use;
  } else {
    ++t.bad_need;
  }
  if (engine) ++t.engine_use;
  const std::string engine_loads = engine.value_or(pick);

  // The table.
  std::string use;
  const enum fast_answer a = table_answer(w, c, pick, system, use);
  t.table_keep += a == FAST_KEEP, t.table_use += a == FAST_USE,
      t.table_unknown += a == FAST_UNKNOWN;
  const std::string table_loads = a == FAST_USE ? use : pick;
  std::string why;
  if (a != FAST_UNKNOWN && table_loads != engine_loads)
    why = "the table loads " + table_loads + ", the engine " + engine_loads;

  // resolve: the fitting releases, and the one it names.
  if (why.empty() && need) {
    const std::optional<int> major = wanted_major(*need, requested);
    const Choice choice = choose(w.map, *need, requested);
    const Resolved resolved = resolve_file(w.map, choice, requested, name, find_library_file);
    // The loader's pick fits when it is a fitting release (by what it reports).
    std::error_code ec;
    const std::string real = pick.empty() ? "" : fs::canonical(pick, ec).string();
    std::optional<std::string> probed_at;  // where the pick's release was probed, if it is one
    bool pick_fits = false;
    for (std::size_t i = 0; i < w.files.size(); ++i)
      if (!real.empty() && w.files[i] == real) {
        probed_at = w.files[i];
        pick_fits = std::ranges::find(choice.ranked, i) != choice.ranked.end();
      }
    if (!probed_at && w.truth.contains(real)) {
      const Probe &p = w.truth.at(real);
      pick_fits = fit(*need, major, p.version, p.cuda, Words::no).compatible;
    }
    const std::string expected = pick_fits        ? probed_at.value_or(pick)
                                 : resolved.entry ? resolved.file
                                                  : pick;
    if (engine_loads != expected)
      why = "the engine loads " + engine_loads + ", resolve's answer is " + expected +
            (pick_fits ? " (the loader's pick fits)" : "");
  } else if (why.empty() && engine) {
    why = "the engine hands over " + *engine + " for a need it cannot read: " + need.error;
  }
  if (why.empty()) return;
  ++t.disagreeing;
  if (t.disagreements.size() < 10) t.disagreements.push_back(describe(w, c) + ": " + why);
}

unsigned seed() {
  if (const char *s = std::getenv("CUDNN_COMPAT_SEED"))
    return unsigned(std::strtoul(s, nullptr, 10));
  return std::random_device{}();
}

TEST(DecisionProperty, TableEngineAndResolveAgree) {
  const unsigned s = seed();
  std::cout << "seed " << s << " (CUDNN_COMPAT_SEED=" << s << " repeats this run)\n";
  RecordProperty("seed", int(s));
  std::mt19937 rng(s);
  // Real paths: the picks are compared with the files the table names.
  const std::string base =
      fs::canonical(testing::TempDir()).string() + "/decision-property-" + std::to_string(getpid());
  fs::remove_all(base);
  Tally t;
  for (int i = 0; i < 150; ++i) {
    const World w = make_world(rng, base + "/w" + std::to_string(i));
    for (int k = 0; k < 40; ++k) {
      // Mostly a major of the map; now and then 6, which it never has.
      const int major = rng() % 10 ? w.map.cudnn[rng() % w.map.cudnn.size()].version.major : 6;
      Case c{major, random_require(rng, major, w), random_cuda_text(rng), ""};
      c.pick = random_pick(rng, w, major);
      check(w, c, t);
    }
  }
  fs::remove_all(base);
  std::cout << t.cases << " cases: the table kept " << t.table_keep << ", handed over "
            << t.table_use << " and left " << t.table_unknown << " to the engine; the engine "
            << "handed over " << t.engine_use << "; " << t.bad_need << " needs were no version\n";
  EXPECT_GT(t.table_keep, 0);
  EXPECT_GT(t.table_use, 0);
  EXPECT_EQ(t.disagreeing, 0) << "seed " << s << ", the first ten:\n"
                              << [&] {
                                   std::string all;
                                   for (const std::string &d : t.disagreements) all += d + "\n";
                                   return all;
                                 }();
}

}  // namespace
}  // namespace cudnn_compat
