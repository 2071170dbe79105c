// cudnn-compat map validate|show
#include "cli.h"
#include "diagnostics.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include <iostream>

namespace cudnn_compat::cli {
namespace {

std::string release_of(const Installed &e) {
  return "cuDNN " + to_string(e.version) + (e.cuda ? " for CUDA " + to_string(*e.cuda) : "");
}

// One entry's list of places (lib = [...]) whose libraries are different builds (another
// release, or the same for another CUDA): no version or cuda written makes it true, and "set
// version" or "set cuda" would break the other place (an outside tester followed the advice round
// in a circle).
bool same_entry(const Installed &a, const Installed &b) {
  return a.pos.line == b.pos.line && a.pos.column == b.pos.column;
}

std::optional<Diagnostic> places_differ(const Map &map, const TableFacts &facts, std::size_t i,
                                        Severity severity) {
  const Installed &e = map.cudnn[i];
  if (!library_spoke(facts.probes[i])) return std::nullopt;
  auto build = [](const Probe &q) {
    return to_string(q.version) + (q.cuda ? " for CUDA " + to_string(*q.cuda) : "");
  };
  for (std::size_t j = 0; j < map.cudnn.size(); ++j)
    if (j != i && same_entry(map.cudnn[j], e) && library_spoke(facts.probes[j]) &&
        build(*facts.probes[j]) != build(*facts.probes[i]))
      return Diagnostic{severity, map.path, e.pos,
                        "the places of this entry hold different builds: " + e.lib + " " +
                            build(*facts.probes[i]) + ", " + map.cudnn[j].lib + " " +
                            build(*facts.probes[j]) + "; give each a [[cudnn]] entry of its own"};
  return std::nullopt;
}

// --probe: the map must not lie about what a library is. Entry i's library loaded and says
// something else than the map.
Diagnostic probe_error(const Map &map, const TableFacts &facts, std::size_t i,
                       const std::string &file) {
  const Installed &e = map.cudnn[i];
  const Probe &p = *facts.probes[i];
  // Two entries, one library: no version written in either can make both true.
  for (std::size_t j = 0; j < map.cudnn.size(); ++j)
    if (j != i && facts.files[j] == facts.files[i] &&
        !same_release(map.cudnn[j].version, e.version))
      return {Severity::error, map.path, e.pos,
              "directory " + e.lib + " is listed under two releases: " + release_of(e) +
                  " here and " + release_of(map.cudnn[j]) + " at line " +
                  std::to_string(map.cudnn[j].pos.line) + "; its " + file + " reports cuDNN " +
                  to_string(p.version) +
                  ": remove the entry of the release it does not hold, or point that entry at its "
                  "own directory"};
  if (!same_release(p.version, e.version))
    return {Severity::error, map.path, e.pos,
            "the map says cuDNN " + to_string(e.version) + " but " + file + " reports " +
                to_string(p.version) + "; set version = \"" + to_string(p.version) + "\""};
  return {Severity::error, map.path, e.pos,
          "the map says CUDA " + to_string(*e.cuda) + " but " + file + " was built for CUDA " +
              to_string(*p.cuda) + "; set cuda = \"" + to_string(*p.cuda) + "\""};
}

// A CUDA of the same major but another minor than the library's (cuda = "12.4" over a build for
// 12.9): no decision changes (a driver runs every minor of its major), so a warning, never an
// error that would take the tables away; every reader takes the library's.
std::optional<Diagnostic> cuda_minor_finding(const Map &map, const Installed &e,
                                             const std::optional<Probe> &p) {
  if (!library_spoke(p) || !e.cuda || !p->cuda || !e.cuda->minor || !p->cuda->minor ||
      *e.cuda->minor == *p->cuda->minor)
    return std::nullopt;
  return Diagnostic{Severity::warning, map.path, e.pos,
                    "the map says CUDA " + to_string(*e.cuda) + " but the library of cuDNN " +
                        to_string(e.version) + " was built for CUDA " + to_string(*p->cuda) +
                        "; jobs, resolve and the module hooks take " + to_string(*p->cuda) +
                        "; set cuda = \"" + to_string(*p->cuda) + "\""};
}

// What each entry's library says against the map, from the probes the decision table is written
// with: a release the table leaves out, or holds as its library reports it, is a warning (jobs
// that ask for it start the engine, which probes it again), and with --probe a library that
// reports another release is an error.
std::vector<Diagnostic> library_findings(const Map &map, const TableFacts &facts, bool do_probe) {
  std::vector<Diagnostic> out;
  for (std::size_t i = 0; i < map.cudnn.size(); ++i) {
    const Installed &e = map.cudnn[i];
    if (!facts.files[i]) continue;  // no library file: check_map_libraries says so
    if (std::optional<Diagnostic> d =
            places_differ(map, facts, i, do_probe ? Severity::error : Severity::warning)) {
      // Said once, at the entry's first place; no place of it gets advice of its own.
      if (std::none_of(map.cudnn.begin(), map.cudnn.begin() + std::ptrdiff_t(i),
                       [&](const Installed &o) { return same_entry(o, e); }))
        out.push_back(*d);
      continue;
    }
    if (stands_as_reported(e, facts.probes[i]) && lacks_any(facts, i)) {
      out.push_back({Severity::warning, map.path, e.pos,
                     release_of(e) + ": " + facts.probes[i]->file + ": " +
                         not_whole(e, facts.lacks[i]) + "; not handed out until then"});
      continue;
    }
    const std::string why = library_disagreement(e, facts.probes[i]);
    if (why.empty()) {
      if (std::optional<Diagnostic> d = cuda_minor_finding(map, e, facts.probes[i]))
        out.push_back(*d);
      continue;
    }
    const std::string file =
        find_library_file(e.lib, main_library(e.version.major), e.version.major).value_or(e.lib);
    if (do_probe && facts.probes[i]) {
      out.push_back(probe_error(map, facts, i, file));
      continue;
    }
    if (stands_as_reported(e, facts.probes[i])) {
      const Installed r = as_library_reports(e, facts.probes[i]);
      out.push_back({Severity::warning, map.path, e.pos,
                     release_of(e) + ": " + file + " " + why +
                         "; jobs, resolve and the module "
                         "hooks take it as the library reports it (" +
                         release_of(r) + "); run map validate --probe and correct the entry"});
      continue;
    }
    // The sub-libraries cuDNN dlopens are no ldd's to name: those its directory lacks, named
    // (helper 117: "ldd names what it lacks" for a place without libcudnn_ops.so.9).
    const std::vector<std::string> lacks =
        facts.probes[i] ? std::vector<std::string>{} : lacking_subs(file, e.version);
    out.push_back({Severity::warning, map.path, e.pos,
                   release_of(e) + " is left out of the decision table: " + file + " " + why +
                       ", so jobs that ask for it start the engine, which probes it again; " +
                       (facts.probes[i]  ? "run map validate --probe and correct the entry"
                        : !lacks.empty() ? not_whole(e, lacks) + ", or remove the entry"
                                         : "make it load (ldd " + file +
                                               " names what it lacks) or remove the entry")});
  }
  return out;
}

// A family whose device code cannot be read is not judged on GPUs: it is handed over wherever its
// version fits, as before the map knew of GPUs.
std::vector<Diagnostic> device_code_findings(const Map &map, const TableFacts &facts) {
  std::vector<Diagnostic> out;
  for (std::size_t i = 0; i < map.cudnn.size() && i < facts.codes.size(); ++i)
    if (!facts.codes[i])
      out.push_back({Severity::warning, map.path, map.cudnn[i].pos,
                     release_of(map.cudnn[i]) + ": " + facts.codes[i].error +
                         "; its GPUs are not checked (reinstall the release, or tell NVIDIA)"});
  return out;
}

// The GPUs each release runs on, as the decision table holds them (one line per release), shown
// only where some release carries device code: a map of releases without any reads as before.
nlohmann::json device_code_json(const Map &map, const TableFacts &facts) {
  nlohmann::json out = nlohmann::json::array();
  std::vector<const ReleaseCode *> codes;
  for (const auto &c : facts.codes)
    if (c) codes.push_back(&*c);
  const std::vector<int> gpus = known_gpus(codes);
  for (std::size_t i = 0; i < map.cudnn.size() && i < facts.codes.size(); ++i) {
    if (!facts.codes[i] || facts.codes[i]->empty()) continue;
    Installed e = map.cudnn[i];
    e.code = *facts.codes[i];
    nlohmann::json libraries = nlohmann::json::object(), runs = nlohmann::json::array();
    for (const auto &[name, code] : e.code)
      libraries[name] = {{"cubin", code.cubin}, {"ptx", code.ptx}};
    for (int gpu : gpus_served(e, gpus)) runs.push_back(arch_name(gpu));
    out.push_back({{"version", to_string(e.version)},
                   {"lib", e.lib},
                   {"cuda", json_of(e.cuda)},
                   {"libraries", libraries},
                   {"runs_on", runs}});
  }
  return out;
}

void print_device_code(const nlohmann::json &releases) {
  for (const nlohmann::json &r : releases) {
    std::string gpus, code;
    for (const nlohmann::json &g : r["runs_on"])
      gpus += (gpus.empty() ? "" : " ") + g.get<std::string>();
    std::cout << "cuDNN " << r["version"].get<std::string>() << " in "
              << r["lib"].get<std::string>()
              << (r["cuda"].is_string() ? " (CUDA " + r["cuda"].get<std::string>() + ")" : "")
              << " runs on compute capability " << (gpus.empty() ? "none" : gpus) << "; "
              << "device code in " << r["libraries"].size() << " of its libraries\n";
  }
}

int count(const std::vector<Diagnostic> &ds, Severity s) {
  return int(
      std::count_if(ds.begin(), ds.end(), [s](const Diagnostic &d) { return d.severity == s; }));
}

// /dev/log's queue on this node, which the shim never waits for: a burst of ranks past it loses
// their records (docs/usage.md, "The socket's queue"). systemd sets it to 512 at boot.
constexpr int kSyslogQueueWanted = 512;
std::optional<Diagnostic> syslog_queue_finding(const Map &map) {
  if (map.usage.mode == UsageMode::off || map.usage.to != "syslog") return std::nullopt;
  std::ifstream in("/proc/sys/net/unix/max_dgram_qlen");
  int queue = 0;
  if (!(in >> queue) || queue >= kSyslogQueueWanted) return std::nullopt;
  return Diagnostic{Severity::warning,
                    map.path,
                    {},
                    "[usage] sends records to syslog, and this node queues only " +
                        std::to_string(queue) +
                        " datagrams at /dev/log (net.unix.max_dgram_qlen): ranks that start "
                        "together lose their records; set it to " +
                        std::to_string(kSyslogQueueWanted) +
                        " on every node (docs/usage.md, \"The socket's queue\")"};
}

// The spool directory [usage] names, as this node has it: each process appends to a file of its
// own there, so one that is missing, no directory, or not writable by every user (mode 1733, as
// docs/usage.md asks) loses every record, each process only counting its drop (admin tester
// helper 115: map validate and doctor said nothing).
std::optional<Diagnostic> spool_finding(const Map &map) {
  if (map.usage.mode == UsageMode::off || map.usage.to == "syslog") return std::nullopt;
  struct stat st {};
  std::string why;
  const char *lost = "every record is dropped";
  if (stat(map.usage.to.c_str(), &st) != 0)
    why = "is not there on this node (" + std::string(std::strerror(errno)) + ")";
  else if (!S_ISDIR(st.st_mode))
    why = "is no directory";
  else if ((st.st_mode & 0333) != 0333)
    why = "is not writable by every user (mode " + octal(st.st_mode) + ")";
  else {  // written to, but what `usage ingest` refuses to read (docs/usage.md): lost there
    lost = "usage ingest refuses to read it";
    if (!(st.st_mode & S_ISVTX))
      why = "lets any user remove or replace another's records (mode " + octal(st.st_mode) +
            ", no sticky bit)";
    else if (st.st_uid != 0)
      why = "is owned by uid " + std::to_string(st.st_uid) + ", not root";
  }
  if (why.empty()) return std::nullopt;
  return Diagnostic{Severity::warning,
                    map.path,
                    {},
                    "[usage] sends records to the spool directory " + map.usage.to + ", which " +
                        why + ": " + lost +
                        "; make it root-owned with mode 1733 on every node "
                        "(mkdir -p " +
                        map.usage.to + " && chmod 1733 " + map.usage.to + ")"};
}

// Every diagnostic of the map, its libraries and their own word (when probed), in line order.
std::vector<Diagnostic> all_diagnostics(const LoadedMap &m, const std::optional<TableFacts> &facts,
                                        bool do_probe) {
  std::vector<Diagnostic> ds = m.diagnostics;
  if (m.map && !m.map->policy.trusted_group.empty() && !group_id(m.map->policy.trusted_group))
    ds.push_back({Severity::warning,
                  m.path,
                  {},
                  "trusted_group \"" + m.map->policy.trusted_group +
                      "\" is no group on this machine: what its members may write is not "
                      "trusted here"});
  if (m.map) {
    if (std::optional<Diagnostic> d = syslog_queue_finding(*m.map)) ds.push_back(std::move(*d));
    if (std::optional<Diagnostic> d = spool_finding(*m.map)) ds.push_back(std::move(*d));
    for (Diagnostic &d : check_map_libraries(*m.map)) ds.push_back(std::move(d));
    if (facts)
      for (Diagnostic &d : library_findings(*m.map, *facts, do_probe)) ds.push_back(std::move(d));
    if (facts)
      for (Diagnostic &d : device_code_findings(*m.map, *facts)) ds.push_back(std::move(d));
    // A bad [[node]] value is said at run time too, on its node only; here before any job.
    for (const NodeEntry &n : m.map->nodes)
      if (const auto f = node_entry_facts(n.gpu_arch, n.driver_cuda); !f)
        ds.push_back({Severity::error, m.path, n.pos, "[[node]] \"" + n.name + "\": " + f.error});
  }
  std::stable_sort(ds.begin(), ds.end(), [](const Diagnostic &a, const Diagnostic &b) {
    return a.pos.line < b.pos.line;
  });
  return ds;
}

// The admin who owns the map (or a member of its trusted group) refreshes the tables jobs and
// hooks read instead of the map, beside it or in the directory given (--tables-dir: for a map
// whose own directory is read-only; the tables go where the map's copies go, and believe any copy
// of this map). Anyone else validating the site map has no business writing beside it, and is not
// told about it. A map with errors gets none, and loses those an earlier validation wrote: its
// stamp may still match them.
// The tables written beside the map (or into dir), or nullopt when none were.
std::optional<std::vector<std::string>> refresh_caches(const LoadedMap &m,
                                                       const std::vector<Diagnostic> &ds,
                                                       const std::optional<TableFacts> &facts,
                                                       const std::string &dir) {
  if (!m.map || !facts || count(ds, Severity::error)) {
    const std::string why = remove_job_caches(m.path, dir);
    if (!why.empty()) Note() << why;
    return std::nullopt;
  }
  const std::string why = write_job_caches({m.map, m.diagnostics}, *facts, dir);
  if (why.empty()) {
    std::vector<std::string> written;
    for (TableKind kind : kAllTables) written.push_back(table_path(m.path, kind, dir));
    return written;
  }
  Note() << "no tables written (" + why +
                "); jobs and hooks will read the map itself, which is slower" +
                (dir.empty() ? "; write them elsewhere with --tables-dir DIR and put them beside "
                               "the map's copies"
                             : "");
  return std::nullopt;
}

// Whether this user may write the map's tables beside it: its owner, or a member of its trusted
// group when the map carries that group.
bool may_write_tables(const std::optional<FileStamp> &stamp, const LoadedMap &m) {
  if (!stamp) return false;
  if (stamp->uid == geteuid()) return true;
  const std::int64_t gid = m.map ? trusted_gid(*m.map) : -1;
  struct stat st {};
  if (gid < 0 || stat(m.path.c_str(), &st) != 0 || std::int64_t(st.st_gid) != gid) return false;
  std::vector<gid_t> groups(std::size_t(std::max(getgroups(0, nullptr), 0)));
  groups.resize(std::size_t(std::max(getgroups(int(groups.size()), groups.data()), 0)));
  return getegid() == gid_t(gid) ||
         std::find(groups.begin(), groups.end(), gid_t(gid)) != groups.end();
}

void print_validation(const LoadedMap &m, const std::vector<Diagnostic> &ds,
                      const std::optional<std::vector<std::string>> &tables,
                      const nlohmann::json &devices, const Globals &g) {
  const int errors = count(ds, Severity::error), warnings = count(ds, Severity::warning);
  if (g.json) {
    nlohmann::json list = nlohmann::json::array();
    for (const Diagnostic &d : ds) list.push_back(json_of(d));
    print_json(
        {{"file", m.path},
         {"valid", errors == 0},
         {"errors", errors},
         {"warnings", warnings},
         {"cudnn", m.map ? nlohmann::json(m.map->cudnn.size()) : nlohmann::json(nullptr)},
         {"require", m.map ? nlohmann::json(m.map->require.size()) : nlohmann::json(nullptr)},
         {"diagnostics", list},
         {"device_code", devices},
         {"cache", tables ? nlohmann::json(tables->front()) : nlohmann::json(nullptr)},
         {"tables", tables ? nlohmann::json(*tables) : nlohmann::json::array()}});
    return;
  }
  for (const Diagnostic &d : ds) print_diagnostic(d);
  std::cout << m.path << ": " << (errors ? "invalid" : "valid");
  if (m.map)
    std::cout << ", " << release_count(*m.map) << " cuDNN release(s)"
              << (release_count(*m.map) == m.map->cudnn.size()
                      ? ""
                      : " in " + std::to_string(m.map->cudnn.size()) + " places")
              << ", " << m.map->require.size() << " require rule(s)";
  std::cout << "; " << errors << " error(s), " << warnings << " warning(s)\n";
  print_device_code(devices);
  // Every table, as jobs and hooks read them (the cache alone was named, the outside test of
  // 2026-12-02: an admin copying the map's files copied one of four).
  if (tables) {
    std::cout << "tables written:";
    for (const std::string &t : *tables) std::cout << ' ' << t;
    std::cout << '\n';
  }
}

int validate_map(const std::string &file, bool do_probe, const std::string &tables_dir,
                 const Globals &g) {
  const LoadedMap m = load_site_map(file, true);
  if (m.path.empty()) {
    Error() << map_not_found_message();
    return kNo;
  }
  const bool writer = !tables_dir.empty() || may_write_tables(stamp_file(m.path), m);
  std::error_code ec;
  if (writer && std::filesystem::is_symlink(m.path, ec))
    Note()
        << m.path
        << " is a symbolic link: jobs and hooks do not read the tables beside a link "
           "(docs/contract.md); name the file it leads to, or put a copy there, to have them used";
  std::optional<TableFacts> facts;
  if (m.map && (writer || do_probe)) facts = gather_table_facts(*m.map, probe_options());
  const std::vector<Diagnostic> ds = all_diagnostics(m, facts, do_probe);
  const std::optional<std::vector<std::string>> tables =
      writer ? refresh_caches(m, ds, facts, tables_dir) : std::nullopt;
  print_validation(m, ds, tables,
                   m.map && facts ? device_code_json(*m.map, *facts) : nlohmann::json::array(), g);
  return count(ds, Severity::error) ? kNo : kYes;
}

nlohmann::json map_json(const LoadedMap &m) {
  nlohmann::json cudnn = nlohmann::json::array(), require = nlohmann::json::array();
  for (const Installed &e : m.map->cudnn) cudnn.push_back(json_of(e));
  for (const RequireRule &r : m.map->require)
    require.push_back(
        {{"match", r.match}, {"cudnn", to_string(r.cudnn)}, {"cuda", json_of(r.cuda)}});
  return {{"file", m.path},
          {"schema", 1},
          {"policy",
           {{"rule", rule_name(m.map->policy.rule)},
            {"prefer", m.map->policy.prefer == Prefer::newest ? "newest" : "oldest"},
            {"on_module_mismatch",
             m.map->policy.on_module_mismatch == OnMismatch::warn ? "warn" : "error"},
            {"trusted_group", m.map->policy.trusted_group.empty()
                                  ? nlohmann::json(nullptr)
                                  : nlohmann::json(m.map->policy.trusted_group)}}},
          {"cudnn", cudnn},
          {"require", require}};
}

int show_map(const std::string &file, const Globals &g) {
  const LoadedMap m = load_site_map(file);
  if (m.path.empty() || !m.map) {
    report_unusable_map(m);
    return kNo;
  }
  if (g.json)
    print_json(map_json(m));
  else
    std::cout << format_map(*m.map);
  // Shown as read, and as invalid where `map validate` says so (a relative lib: jobs skip it).
  for (const Diagnostic &d : check_map_libraries(*m.map))
    if (d.severity == Severity::error) {
      Error() << to_string(d) << "; see `cudnn-compat map validate`";
      return kNo;
    }
  return kYes;
}

}  // namespace

void add_map(CLI::App &app, Globals &g) {
  CLI::App *map = app.add_subcommand("map", "Check or print the site's version map");
  map->require_subcommand(1);
  auto file = std::make_shared<std::string>();
  auto flag = std::make_shared<std::string>();  // --map FILE, as every other subcommand takes it
  const auto map_of = [file, flag] { return flag->empty() ? *file : *flag; };
  const auto add_map_options = [&](CLI::App *cmd) {
    add_map_option(cmd, *flag)->excludes(add_map_option(cmd, *file, "FILE"));
  };
  auto do_probe = std::make_shared<bool>(false);
  auto tables_dir = std::make_shared<std::string>();

  CLI::App *validate =
      map->add_subcommand("validate", "Report every problem of a map with file:line:column");
  add_map_options(validate);
  validate->add_flag("--probe", *do_probe,
                     "Also load each listed library and compare the version it reports");
  validate
      ->add_option("--tables-dir", *tables_dir,
                   "Write the map's tables into DIR instead of beside the map (a read-only map "
                   "directory); put them beside the map's copies: they believe any copy of it")
      ->check(CLI::ExistingDirectory.description(""))
      ->type_name("DIR");
  validate->footer(R"(
Errors (the map is refused, the shim falls back to the ordinary load): bad TOML, an unknown schema,
missing or ill-typed keys, versions that do not parse, the same release listed twice, one module
listed for two releases, a map (or its directory) that anyone but its owner can write or that is
owned by neither root nor you, and with --probe a library that reports another version than the
map says (or one directory listed under two releases). A relative lib is an error too, but only
its entry is skipped: it would be read against each job's working directory.
Warnings: unknown keys, a lib directory that is missing or holds no libcudnn.so.<major>, and each
release left out of the decision table (its library did not load) or whose library reports
another release or CUDA than the map: jobs, resolve and the hooks take such a release as its
library reports it.

The owner of the map (or a member of its [policy] trusted_group) gets its tables (map.toml.cache,
.fits, .misfits, .decide) written beside it for a valid map, and removed for an invalid one; with
--tables-dir DIR they go into DIR instead, whoever runs it. A table is believed beside any copy of
the map it was made from (cp, rsync, an image): docs/contract.md.

Exit status: 0 valid (warnings allowed), 1 invalid, 2 bad usage.)");
  validate->callback([map_of, do_probe, tables_dir, &g] {
    g.exit_code = validate_map(map_of(), *do_probe, *tables_dir, g);
  });

  CLI::App *show = map->add_subcommand("show", "Print the map normalised (or as JSON)");
  add_map_options(show);
  show->footer("\nExit status: 0 printed, 1 no map or an invalid one, 2 bad usage.");
  show->callback([map_of, &g] { g.exit_code = show_map(map_of(), g); });
}

}  // namespace cudnn_compat::cli
