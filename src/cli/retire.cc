// cudnn-compat retire VERSION --after DATE: who still uses a release (the usage records), the
// module systems' own retirement stanzas naming its replacement, and the map's mark that stops the
// shim handing it over from that day on (issue 21, docs/usage.md).
#include "cli.h"
#include "diagnostics.h"
#include "modules.h"
#include "text.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
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

// FILE with the block of this release replaced, or the block appended: every other line of the
// admin's stays. A block starts at `first` and ends at the first line `last` says ends it, or at
// the file's end where no end line is `marked`; nullopt when a marked block has none (edited by
// hand, or cut short): replacing it would take every line after it.
std::optional<std::string> upsert_block(const std::string &text, const std::string &block,
                                        const std::string &first,
                                        const std::function<bool(const std::string &)> &last,
                                        bool marked) {
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
  if (inside && marked) return std::nullopt;
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

// One file retire changes: what it is, the name the admin gave, the file written (a link's
// target: a site's admin.list or modulerc is often a link to a shared file), its new text, and
// why it cannot be written ("" when it can).
struct Output {
  std::string what, given, target, text, why;
  StagedFile staged;
};

// The text a file given holds now: "" when there is none yet; why not, when it cannot be read
// (an unreadable file read as empty would be replaced by the stanza alone).
std::string current_text(const std::string &target, std::string &text) {
  struct stat st {};
  if (lstat(target.c_str(), &st) != 0) return errno == ENOENT ? "" : std::strerror(errno);
  if (!S_ISREG(st.st_mode)) return "not a regular file";
  std::ifstream in(target, std::ios::binary);
  std::ostringstream s;
  if (!in || !(s << in.rdbuf())) return std::string("cannot be read: ") + std::strerror(errno);
  text = s.str();
  return {};
}

// The Environment Modules the modulerc is for: the one installed here (MODULES_CMD, Debian's
// paths), else 4.6.0, the oldest that applies module-forbid --after (a node with an older one
// ignores the stanza anyway). Its version bounds the cookie's.
std::string envmodules_version(std::string &whose) {
  if (const std::optional<ModuleSystem> found = find_module_system(ModuleSystemKind::envmodules)) {
    // modulecmd.tcl's `module --version` text: "Modules Release 5.2.0 (2022-11-08)".
    const std::string text = read_text(found->command);
    constexpr std::string_view kRelease = "Modules Release ";
    const std::size_t at = text.find(kRelease);
    if (at != std::string::npos) {
      const std::size_t from = at + kRelease.size();
      const std::size_t end = text.find_first_not_of("0123456789.", from);
      std::string version = text.substr(from, end - from);
      if (!version.empty() && std::isdigit(static_cast<unsigned char>(version[0]))) {
        whose = "Environment Modules " + version + " at " + found->command;
        return version;
      }
    }
  }
  whose =
      "no Environment Modules found here: 4.6.0, the oldest that applies module-forbid, "
      "assumed";
  return "4.6.0";
}

// The stanza's file as it will be written, or why it cannot be: nothing is written yet.
Output stanza_output(const std::string &file, const std::string &block, const std::string &first,
                     const std::function<bool(const std::string &)> &last, const char *what,
                     bool modulerc) {
  Output o{what, file, {}, {}, {}, {}};
  o.why = link_target(file, o.target);
  std::string text;
  if (o.why.empty()) o.why = current_text(o.target, text);
  if (o.why.empty() && modulerc) {
    // A new modulerc starts with its cookie; one whose cookie the module system refuses is not
    // written to (Environment Modules would refuse every command of everyone it serves).
    if (text.empty()) text = "#%Module\n";
    std::string whose;
    const std::string version = envmodules_version(whose);
    o.why = modulerc_cookie_problem(text, version);
    if (!o.why.empty() && text.starts_with("#%Module")) o.why += " (" + whose + ")";
  }
  if (!o.why.empty()) return o;
  if (const std::optional<std::string> t = upsert_block(text, block, first, last, modulerc))
    o.text = *t;
  else
    o.why = "holds the start of this release's stanza (" + first +
            ") but not its end: edited by hand or cut short; not written, so that no line after "
            "it is lost (mend or remove the stanza by hand)";
  return o;
}

// The map with the release's mark, or why it cannot be.
Output map_output(const LoadedMap &m, const Installed &release, const std::string &date) {
  Output o{"map", m.path, {}, {}, {}, {}};
  o.why = link_target(m.path, o.target);
  std::string text;
  if (o.why.empty()) o.why = current_text(o.target, text);
  if (!o.why.empty()) return o;
  const std::optional<std::string> marked = mark_in_map_text(text, release, date);
  if (!marked)
    o.why = "cannot find the [[cudnn]] table of " + to_string(release.version) + " at line " +
            std::to_string(release.pos.line) + "; add retire_after = \"" + date +
            "\" to it by hand";
  else
    o.text = *marked;
  return o;
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
              << " jobs, last on " << utc_date(u.last)
              << (u.redirected_away ? "; redirected away from it (the loader's own choice, another "
                                      "handed over): the module is still loaded, and they see "
                                      "its retirement message"
                                    : "")
              << '\n';
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
                     {"last_used", utc_date(u.last)},
                     {"redirected_away", u.redirected_away}});
    print_json({{"release", json_of(*r.release)},
                {"after", a.date},
                {"users", who},
                {"needs", r.needs},
                {"replacement", r.replacement ? json_of(*r.replacement) : nlohmann::json(nullptr)},
                {"unmet", r.unmet},
                {"lmod", r.modules.empty() ? "" : lmod_admin_entry(r)},
                {"envmodules", r.modules.empty() ? "" : envmodules_stanza(r)}});
  } else {
    print_users(users, release, a.db);
    std::cout << "replacement for the needs "
              << (needs.empty() ? "of its own x.y" : "the records show") << " (";
    for (std::size_t i = 0; i < r.needs.size(); ++i)
      std::cout << (i ? ", " : "") << printable(r.needs[i]);
    std::cout << "): "
              << (r.replacement
                      ? "cuDNN " + to_string(r.replacement->version) +
                            (r.replacement->module.empty() ? ""
                                                           : " (" + r.replacement->module + ")")
                      : std::string("none fits"))
              << (r.unmet.empty() ? "" : "; it does not fit " + r.unmet) << '\n';
  }
}

// Every file retire changes, prepared: the stanzas of the files given, then the map.
std::vector<Output> plan_outputs(const Retirement &r, const RetireArgs &a, const LoadedMap &m,
                                 const std::string &release) {
  std::vector<Output> out;
  if (r.modules.empty()) {
    Warn() << "retire: cuDNN " << release << " has no module in the map: no module system "
           << "stanza is written (the shim still stops handing it over)";
  } else {
    const std::string lmod_first = "# cudnn-compat retire " + release;
    const std::string tcl_first = "# cudnn-compat retire " + release + " (begin)";
    const auto blank = [](const std::string &l) { return l.empty(); };
    const auto end = [release](const std::string &l) {
      return l == "# cudnn-compat retire " + release + " (end)";
    };
    if (!a.lmod.empty())
      out.push_back(stanza_output(a.lmod, lmod_admin_entry(r) + "\n", lmod_first, blank,
                                  "Lmod admin.list", false));
    if (!a.envmodules.empty())
      out.push_back(stanza_output(a.envmodules, envmodules_stanza(r), tcl_first, end,
                                  "Environment Modules modulerc", true));
  }
  out.push_back(map_output(m, *r.release, a.date));
  return out;
}

// Two outputs in one file would each replace the other's text, and a stanza in the usage
// database would spoil it: refused, each with the file it collides with.
void refuse_shared_files(std::vector<Output> &outs, const std::string &db) {
  for (std::size_t j = 0; j < outs.size(); ++j) {
    Output &o = outs[j];
    for (std::size_t i = 0; i < j && o.why.empty(); ++i)
      if (!outs[i].target.empty() && same_file(outs[i].target, o.target))
        o.why = "is the same file as the " + outs[i].what + " " + outs[i].given +
                ": one file cannot hold both; give each its own";
    if (o.why.empty() && !db.empty() && same_file(db, o.target))
      o.why = "is the usage database given with --db";
  }
}

// Writes every output or none: each is staged beside its target first (written whole and synced,
// as the real write makes it), and only when all are staged are they renamed into place, so a
// file that cannot be written leaves every other as the admin had it. A dry run stages them too,
// and removes them again: it meets exactly the refusals a real run would. False when one failed.
bool write_outputs(std::vector<Output> &outs, const std::string &release, bool dry_run,
                   std::ostream &said) {
  for (Output &o : outs)
    if (o.why.empty()) o.why = stage_file(o.target, o.text, o.staged);
  bool ok = true;
  for (const Output &o : outs)
    if (!o.why.empty()) {
      Error() << "retire: " << o.what << " " << o.given << ": " << o.why;
      ok = false;
    }
  if (!ok || dry_run) {
    for (Output &o : outs) discard_staged(o.staged);
    if (!ok)
      Error() << "retire: " << (dry_run ? "a real run would write nothing" : "nothing written")
              << ": every file is left as it was, and the shim keeps handing cuDNN " << release
              << " over; fix the above and run it again";
    return ok;
  }
  // The module files before the map: a rename that fails (it all but never does once staged)
  // leaves the map unmarked, so the shim keeps handing the release over.
  for (Output &o : outs) {
    o.why = commit_staged(o.staged);
    if (!o.why.empty()) {
      Error() << "retire: " << o.what << " " << o.given << ": " << o.why;
      for (Output &rest : outs) discard_staged(rest.staged);
      return false;
    }
    if (o.what != "map") said << o.what << " written: " << o.given << '\n';
  }
  return true;
}

// After the map's mark: the tables jobs read, rewritten from it.
bool rewrite_tables(const LoadedMap &m, const Installed &release, const std::string &date,
                    std::ostream &said) {
  const std::string why = write_job_caches(read_map_file(m.path), probe_options().helper);
  if (!why.empty()) {
    Error() << "retire: " << m.path << ": " << why << "; retire_after = \"" << date
            << "\" is in the map: run `cudnn-compat map validate` to rewrite its tables";
    return false;
  }
  said << "map: " << m.path << ":" << release.pos.line << ": retire_after = \"" << date
       << "\"; from that day on the shim hands cuDNN " << to_string(release.version)
       << " over no more (tables rewritten)\n";
  return true;
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
  if (!r.modules.empty() && (a.dry_run || (a.lmod.empty() && a.envmodules.empty())) && !g.json)
    std::cout << "\nLmod (admin.list, LMOD_ADMIN_FILE):\n"
              << lmod_admin_entry(r) << "\nEnvironment Modules (a modulerc):\n"
              << envmodules_stanza(r);
  std::vector<Output> outs = plan_outputs(r, a, m, release);
  refuse_shared_files(outs, a.db);
  // With --json, stdout holds the one document: what was done goes to stderr.
  std::ostream &said = g.json ? std::cerr : std::cout;
  if (!write_outputs(outs, release, a.dry_run, said)) return kNo;
  if (a.dry_run) {
    said << "dry run: nothing written; a real run can write every file (";
    for (std::size_t i = 0; i < outs.size(); ++i) said << (i ? ", " : "") << outs[i].given;
    said << ")\n";
    return kYes;
  }
  return rewrite_tables(m, *r.release, a.date, said) ? kYes : kNo;
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
with #%Module, and one whose first word Environment Modules would refuse (no #%Module, or a
version after it newer than the Environment Modules installed here, else than 4.6) is not written
to: it would refuse every command. Without --lmod and --envmodules both stanzas are printed.
Every file (the stanzas' and the map) is written or none is: each is first written beside its
target and renamed into place only when all could be. --dry-run goes as far, then removes them:
it refuses what a real run would, and changes nothing.

--after is today or a later day: a past day would retire the release at once.

The map gets retire_after = "DATE" in the release's [[cudnn]] table (nothing else of it changes)
and its tables are rewritten: from 00:00 of that day (local time) the shim no longer hands the
release over; a process whose own loader finds it, and which it fits, keeps it.

Exit status: 0 done, 1 the release is not in the map or a file could not be written, 2 bad usage,
an invalid map or no such database.)");
  cmd->callback([a, &g] { g.exit_code = retire(*a, g); });
}

}  // namespace cudnn_compat::cli
