// The map's derived tables: names, stamp and end line from the contract (site_contract.h), and
// the one reader of the engine, which is the shim's own (shim/site_files.c) with the engine's words
// for what it found.
#include "map.h"
#include "read_file.h"
#include "site_files.h"

#include <unistd.h>

#include <filesystem>

namespace cudnn_compat {
namespace {

FileOwner owner(const struct stat &st) {
  return {std::uint64_t(st.st_uid), unsigned(st.st_mode), std::uint64_t(st.st_gid)};
}

std::string directory_of(const std::string &path) {
  const std::string dir = std::filesystem::path(path).parent_path().string();
  return dir.empty() ? "." : dir;
}

// Why read_table did not believe the table at path, for people.
std::string why_not(const std::string &map_path, TableKind kind, int verdict,
                    const site_seen &seen) {
  const std::uint64_t me = geteuid();
  const std::string path = table_path(map_path, kind);
  const std::string group = group_name(seen.stamp.gid);
  switch (verdict) {
    case SITE_MAP_NOT_FILE:
      return map_path + " is missing, a symbolic link or not a file (the tables are read only " +
             "beside the map's own file)";
    case SITE_NO_TABLE:
      return "no " + path;
    case SITE_TABLE_NOT_FILE:
      return path + " is a symbolic link, a FIFO or a device, not a file";
    case SITE_OTHER_FORMAT:
      return path + " is not of the format this cudnn-compat reads (" +
             std::string(table_format(kind)) + "): written by another version; run map validate";
    case SITE_MAP_UNTRUSTED:
      return "the map " + untrusted_because(owner(seen.map), me, seen.stamp.gid, group)
                              .value_or("is not trusted");
    case SITE_DIR_UNTRUSTED:
      return "its directory " + directory_of(map_path) + " " +
             untrusted_because(owner(seen.dir), me, seen.stamp.gid, group)
                 .value_or("is not trusted");
    case SITE_TABLE_UNTRUSTED:
      return path + " " +
             untrusted_because(owner(seen.table), me, seen.stamp.gid, group)
                 .value_or("is owned by uid " + std::to_string(seen.table.st_uid) +
                           ", not by the map's owner (uid " + std::to_string(seen.map.st_uid) +
                           "); run map validate as the map's owner");
    case SITE_STALE:
      return path + " was made from another map (the map changed since); run map validate";
    case SITE_CUT_SHORT:
      return path + " was cut short (no '" SITE_END_LINE "' line); run map validate";
    default:
      return "";
  }
}

}  // namespace

std::optional<FileStamp> stamp_file(const std::string &path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return FileStamp{
      std::uint64_t(st.st_ino), std::uint64_t(st.st_size),
      std::uint64_t(st.st_mtim.tv_sec) * 1'000'000'000u + std::uint64_t(st.st_mtim.tv_nsec),
      std::uint64_t(st.st_uid)};
}

// Each kind's suffix and format, in TableKind's order.
constexpr std::pair<std::string_view, std::string_view> kTables[] = {
    {SITE_CACHE_SUFFIX, SITE_CACHE_FORMAT},
    {SITE_FITS_SUFFIX, SITE_FITS_FORMAT},
    {SITE_MISFITS_SUFFIX, SITE_MISFITS_FORMAT},
    {SITE_DECIDE_SUFFIX, SITE_DECIDE_FORMAT}};

std::string_view table_suffix(TableKind kind) {
  return kTables[std::size_t(kind)].first;
}

std::string_view table_format(TableKind kind) {
  return kTables[std::size_t(kind)].second;
}

std::string table_path(const std::string &map_path, TableKind kind, const std::string &dir) {
  const std::string base =
      dir.empty()
          ? map_path
          : (std::filesystem::path(dir) / std::filesystem::path(map_path).filename()).string();
  return base + std::string(table_suffix(kind));
}

std::string stamp_line(TableKind kind, const FileStamp &s) {
  std::string line(table_format(kind));
  for (std::uint64_t n : {s.ino, s.size, s.mtime_ns / 1'000'000'000, s.mtime_ns % 1'000'000'000,
                          std::uint64_t(s.crc)})
    line.append("\t").append(std::to_string(n));
  return line.append("\t").append(s.gid < 0 ? SITE_NO_GROUP : std::to_string(s.gid)).append("\n");
}

std::string_view table_end() {
  return SITE_END_LINE "\n";
}

std::optional<FileStamp> parse_stamp(std::string_view text, TableKind kind) {
  const std::string line(text.substr(0, text.find('\n') + 1));
  site_stamp s{};
  if (!site_parse_stamp(line.c_str(), std::string(table_format(kind)).c_str(), &s))
    return std::nullopt;
  return FileStamp{s.ino, s.size, s.mtime_s * 1'000'000'000 + s.mtime_ns, 0, std::uint32_t(s.crc),
                   s.gid};
}

TableRead read_table(const std::string &map_path, TableKind kind) {
  const std::string path = table_path(map_path, kind);
  std::string dir(map_path.size() + 1, '\0');
  site_seen seen{};
  site_verdict verdict = SITE_BELIEVED;
  const long fd = site_open_table(map_path.c_str(), path.c_str(), dir.data(), long(dir.size()),
                                  &seen, &verdict);
  TableRead r;
  if (fd >= 0) {
    std::string text;
    const ReadEnd end = read_to_end(int(fd), text);
    close(int(fd));
    verdict = end != ReadEnd::done ? SITE_NO_TABLE
                                   : site_judge_table(text.c_str(), long(text.size()),
                                                      std::string(table_format(kind)).c_str(),
                                                      map_path.c_str(), &seen);
    if (verdict == SITE_BELIEVED) r.text = std::move(text);
  }
  r.verdict = verdict;
  if (verdict != SITE_BELIEVED) r.why = why_not(map_path, kind, verdict, seen);
  return r;
}

}  // namespace cudnn_compat
