// Whether a map may steer anyone's jobs: as sudo and ssh refuse a sudoers or authorized_keys file
// that someone else could have written, the engine refuses a map that others than root, its reader
// and the map's trusted group can change. The rule is the contract's (shim/site_files.c, the one
// the shim and the hooks apply); this file words it for people.
#include "map.h"
#include "site_files.h"

#include <grp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <vector>

namespace cudnn_compat {

std::string octal(unsigned mode) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%04o", mode & 07777);
  return buf;
}

namespace {

std::optional<struct stat> stat_of(const std::string &path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return std::nullopt;
  return st;
}

struct GroupEntry {
  gid_t gid;
  std::string name;
};

// A site's group can list thousands of members, more than any fixed buffer holds (ERANGE): the
// buffer, on the heap, doubles until the entry fits.
template <class Lookup>
std::optional<GroupEntry> group_entry(Lookup lookup) {
  std::vector<char> buf(16384);
  for (;;) {
    struct group g {
    }, *found = nullptr;
    const int error = lookup(&g, buf, &found);
    if (error == ERANGE && buf.size() < (std::size_t(64) << 20)) {
      buf.resize(buf.size() * 2);
      continue;
    }
    if (error != 0 || !found) return std::nullopt;
    return GroupEntry{found->gr_gid, found->gr_name};
  }
}

std::string parent_of(const std::string &path) {
  const std::filesystem::path p = std::filesystem::absolute(path).parent_path();
  return p.empty() ? "/" : p.string();
}

}  // namespace

std::optional<std::int64_t> group_id(const std::string &name) {
  if (name.empty()) return std::nullopt;
  const auto gid = group_entry([&](group *g, std::vector<char> &buf, group **found) {
    return getgrnam_r(name.c_str(), g, buf.data(), buf.size(), found);
  });
  return gid ? std::optional<std::int64_t>(gid->gid) : std::nullopt;
}

std::int64_t trusted_gid(const Map &map) {
  return group_id(map.policy.trusted_group).value_or(-1);
}

std::string group_name(std::int64_t gid) {
  if (gid < 0) return "";
  const auto entry = group_entry([&](group *g, std::vector<char> &buf, group **found) {
    return getgrgid_r(gid_t(gid), g, buf.data(), buf.size(), found);
  });
  return entry ? entry->name : "gid " + std::to_string(gid);
}

std::optional<std::string> untrusted_because(const FileOwner &o, std::uint64_t reader,
                                             std::int64_t gid, const std::string &group) {
  struct stat st {};
  st.st_uid = uid_t(o.uid), st.st_gid = gid_t(o.gid), st.st_mode = mode_t(o.mode);
  const int problem = site_object_problem(&st, reader, gid);
  if (!problem) return std::nullopt;
  const std::string what =
      problem == 1 ? "is owned by uid " + std::to_string(o.uid) + ", neither root nor you" +
                         (gid < 0 ? "" : " nor of group " + group)
      : problem == 2 ? "is writable by others than its owner (mode " + octal(o.mode) + ": everyone)"
                     : "is writable by others than its owner (mode " + octal(o.mode) + ": group " +
                           group_name(std::int64_t(o.gid)) +
                           (gid >= 0        ? ", not the trusted_group)"
                            : group.empty() ? ", and the map names no trusted_group)"
                                            : ", and the map's trusted_group \"" + group +
                                                  "\" is no group on this system)");
  // Only its owner can change it: others are told whose problem it is, not a command they cannot
  // run.
  if (o.uid != reader) return what + "; tell the site's admins";
  if (problem == 1) return what + "; have root (or you) own it (chown)";
  return what + "; make it writable by its owner only (chmod " + (problem == 2 ? "o-w" : "g-w") +
         (problem == 3 ? ", or name its group in [policy] trusted_group" : "") + ")";
}

std::optional<std::string> map_trust_problem(const std::string &path, const Map *map) {
  const std::optional<struct stat> file = stat_of(path);
  if (!file || !S_ISREG(file->st_mode)) return std::nullopt;  // reading it says what it is
  const std::uint64_t me = geteuid();
  const std::int64_t gid = map ? trusted_gid(*map) : -1;
  const std::string group = map ? map->policy.trusted_group : "";
  // The directory that holds the name (who can replace the map or plant a link there), and when
  // the name is a link, the directory of the file it leads to.
  std::vector<std::string> dirs = {parent_of(path)};
  std::error_code ec;
  if (std::filesystem::is_symlink(path, ec))
    dirs.push_back(parent_of(std::filesystem::canonical(path, ec).string()));
  for (const std::string &d : dirs)
    if (const std::optional<struct stat> o = stat_of(d))
      if (std::optional<std::string> why = untrusted_because(
              {std::uint64_t(o->st_uid), unsigned(o->st_mode), std::uint64_t(o->st_gid)}, me, gid,
              group))
        return "refused: its directory " + d + " " + *why;
  if (std::optional<std::string> why = untrusted_because(
          {std::uint64_t(file->st_uid), unsigned(file->st_mode), std::uint64_t(file->st_gid)}, me,
          gid, group))
    return "refused: it " + *why;
  return std::nullopt;
}

}  // namespace cudnn_compat
