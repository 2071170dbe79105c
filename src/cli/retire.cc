// cudnn-compat retire VERSION --after DATE: who still uses a release (the usage records), the
// module systems' own retirement stanzas naming its replacement, and the map's mark that stops the
// shim handing it over from that day on (issue 21, docs/usage.md).
#include "cli.h"
#include "diagnostics.h"

#include <unistd.h>

#include <ctime>
#include <fstream>
#include <iostream>
#include <sstream>

namespace cudnn_compat::cli {
namespace {

struct RetireArgs {
  std::string version, date, db, map, lmod, envmodules;
  bool dry_run = false;
};

// Environment Modules refuses a modulerc whose first line is not this "magic cookie", and with it
// every command of every user whose MODULERCFILE names the file.
constexpr std::string_view kModulercCookie = "#%Module";

// FILE with the block of this release replaced, or the block appended: every other line of the
// admin's stays. A block starts at `first` and ends at the first line `last` says ends it.
std::string upsert_block(const std::string &text, const std::string &block,
                         const std::string &first,
                         const std::function<bool(const std::string &)> &last) {
  std::istringstream in(text);
  std::string out, line;
  bool inside = false, replaced = false;
  while (std::getline(in, line)) {
    if (!inside && line == first) {
      inside = true;
      out += replaced ? "" : block;
      replaced = true;
      if (!last(line)) continue;
    }
    if (inside) {
      inside = !last(line);
      continue;
    }
    out += line + "\n";
  }
  if (replaced) return out;
  if (!out.empty() && !out.ends_with("\n\n")) out += out.ends_with('\n') ? "\n" : "\n\n";
  return out + block;
}

std::string read_text(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Writes a stanza into FILE (or keeps it to print); false with a line when FILE cannot be written.
// A new modulerc starts with its cookie; one without it is not written to.
bool write_stanza(const std::string &file, const std::string &block, const std::string &first,
                  const std::function<bool(const std::string &)> &last, const char *what,
                  std::string_view cookie = {}) {
  std::string text = read_text(file);
  if (!cookie.empty() && text.empty()) text = std::string(cookie) + "\n";
  if (!cookie.empty() && !text.starts_with(cookie)) {
    Error() << "retire: " << what << " " << file << " does not start with " << cookie
            << ": Environment Modules refuses every command while it names such a file; add "
            << cookie << " as its first line, then run retire again";
    return false;
  }
  // Through a link: a site's admin.list or modulerc is often a link to a shared file.
  const std::string why = write_file_through_link(file, upsert_block(text, block, first, last));
  if (!why.empty())
    Error() << "retire: " << what << " " << file << ": " << why;
  else
    std::cout << what << " written: " << file << '\n';
  return why.empty();
}

// The map's mark: retire_after in the release's table, then the tables jobs read, rewritten.
bool mark_map(const LoadedMap &m, const Installed &release, const std::string &date) {
  const std::optional<std::string> text = mark_in_map_text(read_text(m.path), release, date);
  if (!text) {
    Error() << "retire: cannot find the [[cudnn]] table of " << to_string(release.version) << " at "
            << m.path << ":" << release.pos.line << "; add retire_after = \"" << date
            << "\" to it by hand";
    return false;
  }
  std::string why = write_file_through_link(m.path, *text);
  if (why.empty()) why = write_job_caches(read_map_file(m.path), probe_options().helper);
  if (!why.empty()) {
    Error() << "retire: " << m.path << ": " << why << "; add retire_after = \"" << date
            << "\" to the [[cudnn]] table of " << to_string(release.version)
            << " and run `cudnn-compat map validate`";
    return false;
  }
  std::cout << "map: " << m.path << ":" << release.pos.line << ": retire_after = \"" << date
            << "\"; from that day on the shim hands cuDNN " << to_string(release.version)
            << " over no more (tables rewritten)\n";
  return true;
}

void print_users(const std::vector<UsageStore::Use> &users, const std::string &release,
                 const std::string &db) {
  if (db.empty()) {
    std::cout << "who uses cuDNN " << release << ": no --db given, so not known\n";
    return;
  }
  std::cout << "who used cuDNN " << release << " (" << db
            << "): " << (users.empty() ? "nobody in the records\n" : "\n");
  for (const UsageStore::Use &u : users)
    std::cout << "  " << u.user << ": " << u.records << " processes, " << u.jobs
              << " jobs, last on " << utc_date(u.last) << '\n';
}

// What the plan says, for a person or a script.
void print_plan(const Retirement &r, const std::vector<UsageStore::Use> &users,
                const std::vector<UsageNeed> &needs, const RetireArgs &a,
                const std::string &release, const Globals &g) {
  if (g.json) {
    nlohmann::json who = nlohmann::json::array();
    for (const UsageStore::Use &u : users)
      who.push_back({{"user", u.user},
                     {"processes", u.records},
                     {"jobs", u.jobs},
                     {"last_used", utc_date(u.last)}});
    print_json({{"release", json_of(*r.release)},
                {"after", a.date},
                {"users", who},
                {"needs", r.needs},
                {"replacement", r.replacement ? json_of(*r.replacement) : nlohmann::json(nullptr)},
                {"unmet", r.unmet},
                {"lmod", r.release->module.empty() ? "" : lmod_admin_entry(r)},
                {"envmodules", r.release->module.empty() ? "" : envmodules_stanza(r)}});
  } else {
    print_users(users, release, a.db);
    std::cout << "replacement for the needs "
              << (needs.empty() ? "of its own x.y" : "the records show") << " (";
    for (std::size_t i = 0; i < r.needs.size(); ++i) std::cout << (i ? ", " : "") << r.needs[i];
    std::cout << "): "
              << (r.replacement
                      ? "cuDNN " + to_string(r.replacement->version) +
                            (r.replacement->module.empty() ? ""
                                                           : " (" + r.replacement->module + ")")
                      : std::string("none fits"))
              << (r.unmet.empty() ? "" : "; it does not fit " + r.unmet) << '\n';
  }
}

// The module systems' stanzas: into the files given, else printed; false when one failed.
bool write_stanzas(const Retirement &r, const RetireArgs &a, const std::string &release,
                   const Globals &g) {
  bool ok = true;
  if (r.release->module.empty()) {
    Warn() << "retire: cuDNN " << release << " has no module in the map: no module system "
           << "stanza is written (the shim still stops handing it over)";
  } else {
    const std::string lmod_first = "# cudnn-compat retire " + release;
    const std::string tcl_first = "# cudnn-compat retire " + release + " (begin)";
    const auto blank = [](const std::string &l) { return l.empty(); };
    const auto end = [release](const std::string &l) {
      return l == "# cudnn-compat retire " + release + " (end)";
    };
    if (!a.lmod.empty() && !a.dry_run)
      ok &= write_stanza(a.lmod, lmod_admin_entry(r) + "\n", lmod_first, blank, "Lmod admin.list");
    if (!a.envmodules.empty() && !a.dry_run)
      ok &= write_stanza(a.envmodules, envmodules_stanza(r), tcl_first, end,
                         "Environment Modules modulerc", kModulercCookie);
    if ((a.dry_run || (a.lmod.empty() && a.envmodules.empty())) && !g.json)
      std::cout << "\nLmod (admin.list, LMOD_ADMIN_FILE):\n"
                << lmod_admin_entry(r) << "\nEnvironment Modules (a modulerc):\n"
                << envmodules_stanza(r);
  }
  return ok;
}

int retire(const RetireArgs &a, const Globals &g) {
  // Exactly x.y.z: a build number or a 'v' would name a release the map does not hold as written.
  const Parsed<Version> version = parse_dotted(a.version);
  if (!version || !version->patch || version->build || to_string(*version) != a.version) {
    Error() << "retire: " << a.version << ": expected the release to retire, x.y.z (e.g. 8.9.2)";
    return kUsage;
  }
  const std::optional<std::int64_t> day = day_start(a.date);
  if (!day) {
    Error() << "retire: --after " << a.date << ": expected a date, YYYY-MM-DD";
    return kUsage;
  }
  if (*day + 86400 <= std::int64_t(std::time(nullptr))) {
    Error() << "retire: --after " << a.date
            << " is in the past: the shim would refuse the release and Environment Modules "
               "forbid its module at once; give today's date to retire it now, or a later day";
    return kUsage;
  }
  const LoadedMap m = load_site_map(a.map, true);
  if (!m.map) {
    report_unusable_map(m);
    return kUsage;
  }
  std::vector<UsageStore::Use> users;
  std::vector<UsageNeed> needs;
  const std::string release = to_string(*version);
  if (!a.db.empty()) {
    UsageStore store(a.db, false);
    if (!store.error().empty()) {
      Error() << "retire: " << store.error();
      return kUsage;
    }
    users = store.users_of(release), needs = store.needs_of(release);
  }
  const Parsed<Retirement> plan = plan_retirement(*m.map, *version, needs, a.date);
  if (!plan) {
    Error() << "retire: " << plan.error;
    return kNo;
  }
  const Retirement &r = *plan;
  print_plan(r, users, needs, a, release, g);
  if (!write_stanzas(r, a, release, g)) {
    Error() << "retire: the map " << m.path << " is left as it was: the shim keeps handing cuDNN "
            << release << " over until the module files are written";
    return kNo;
  }
  if (a.dry_run) {
    std::cout << "dry run: nothing written (the map, " << m.path << ", is left as it was)\n";
    return kYes;
  }
  return mark_map(m, *r.release, a.date) ? kYes : kNo;
}

}  // namespace

void add_retire(CLI::App &app, Globals &g) {
  auto a = std::make_shared<RetireArgs>();
  CLI::App *cmd = app.add_subcommand(
      "retire", "Retire a cuDNN release: who uses it, the module systems' stanzas, the map's mark");
  cmd->add_option("VERSION", a->version, "The release to retire, x.y.z")->required();
  cmd->add_option("--after", a->date, "The first day it is handed over no more")
      ->required()
      ->type_name("YYYY-MM-DD");
  cmd->add_option("--db", a->db, "The usage database: who used it, and what they needed")
      ->type_name("FILE");
  add_map_option(cmd, a->map);
  cmd->add_option("--lmod", a->lmod, "Write its entry into this Lmod admin.list (LMOD_ADMIN_FILE)")
      ->type_name("FILE");
  cmd->add_option(
         "--envmodules", a->envmodules,
         "Write its module-forbid/module-warn lines into this Environment Modules modulerc")
      ->type_name("FILE");
  cmd->add_flag("--dry-run", a->dry_run,
                "Say who uses it, its replacement and both stanzas; write nothing");
  cmd->footer(R"(
The replacement is the one decision's choice (the map's rule and preference, as the shim and
resolve decide) for every need the records show among the release's users, the retiring release
set aside; without --db, for the need of a program built against the release itself.

Lmod prints the admin.list entry at every load of the module. Environment Modules forbids loading
it from the day on (module-forbid --after), warns in the 14 days before (--nearly-message), and on
versions that have module-warn (5.5 on) warns at every load until then. A file given is updated in
place: the stanza of this release is replaced, every other line is kept; a new modulerc starts
with #%Module, and one that lacks it is not written to (Environment Modules would refuse every
command). Without --lmod and --envmodules both stanzas are printed. The module files are written
before the map: when one cannot be, the map is left as it was. --dry-run writes nothing.

--after is today or a later day: a past day would retire the release at once.

The map gets retire_after = "DATE" in the release's [[cudnn]] table (nothing else of it changes)
and its tables are rewritten: from 00:00 of that day (local time) the shim no longer hands the
release over; a process whose own loader finds it, and which it fits, keeps it.

Exit status: 0 done, 1 the release is not in the map or a file could not be written, 2 bad usage,
an invalid map or no such database.)");
  cmd->callback([a, &g] { g.exit_code = retire(*a, g); });
}

}  // namespace cudnn_compat::cli
