// The files jobs and hooks read instead of the map (cache, fits and misfits tables, decision
// table), written together from one stamp that git's racy-clean rule makes safe to trust.
#include "atomic_write.h"
#include "facts.h"
#include "read_file.h"
#include "site_files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

namespace cudnn_compat {
namespace {

// The hooks read mtimes in whole seconds, so the tick to wait out is a second.
void wait_past_second_of(std::uint64_t mtime_ns) {
  using namespace std::chrono;
  const auto past = system_clock::time_point(seconds(mtime_ns / 1'000'000'000 + 1));
  if (system_clock::now() < past) std::this_thread::sleep_until(past + milliseconds(10));
}

}  // namespace

Parsed<FileStamp> settle_map_stamp(const Map &parsed) {
  const std::optional<FileStamp> first = stamp_file(parsed.path);
  if (!first) return Parsed<FileStamp>::fail("cannot stat " + parsed.path);
  wait_past_second_of(first->mtime_ns);
  const int fd = open(parsed.path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return Parsed<FileStamp>::fail("cannot open " + parsed.path + ": " + std::strerror(errno));
  struct stat st {};
  std::string text;
  const bool ok = fstat(fd, &st) == 0 && read_to_end(fd, text) == ReadEnd::done;
  close(fd);
  const std::uint64_t mtime =
      std::uint64_t(st.st_mtim.tv_sec) * 1'000'000'000u + std::uint64_t(st.st_mtim.tv_nsec);
  // The content's CRC-32 (a copy of the map keeps it) and the trusted group's id, as this
  // machine names it, go into every table's stamp.
  const FileStamp read{std::uint64_t(st.st_ino),
                       std::uint64_t(st.st_size),
                       mtime,
                       std::uint64_t(st.st_uid),
                       std::uint32_t(site_crc32(0, text.data(), long(text.size()))),
                       trusted_gid(parsed)};
  if (!ok || mtime / 1'000'000'000 != first->mtime_ns / 1'000'000'000)
    return Parsed<FileStamp>::fail(parsed.path + " changed while it was read; validate it again");
  const MapLoad again = parse_map(text, parsed.path);
  if (!again.map || format_map(*again.map) != format_map(parsed))
    return Parsed<FileStamp>::fail(parsed.path + " changed while it was read; validate it again");
  return {read, {}};
}

namespace {

// The releases as their libraries report them (as_library_reports, the shim's and resolve's rule):
// the hooks' tables written from a map's `cuda` that its library contradicts advised a module the
// process would not be handed (an outside tester's finding: Lua and Tcl against C and C++).
// An entry whose directory holds only another major's library is that release: a module of it
// fits no need of the map's major (an outside tester's "5.1.10" over cuDNN 6.0.21 was advised).
// An entry whose directory holds no cuDNN library at all is no place to send anyone, as resolve and
// the shim pass over it (helper 103: the hooks advised cudnn/9.23 after its files were removed).
Map as_reported(const Map &map, const TableFacts &facts) {
  Map out = map;
  out.cudnn.clear();
  for (std::size_t i = 0; i < map.cudnn.size(); ++i) {
    const bool known = i < facts.probes.size() && i < facts.other_major.size();
    if (known && !facts.files[i] && !facts.other_major[i] && is_absolute_lib(map.cudnn[i]))
      continue;
    const bool other = known && !facts.probes[i];
    out.cudnn.push_back(
        known ? as_library_reports(map.cudnn[i], other ? facts.other_major[i] : facts.probes[i])
              : map.cudnn[i]);
  }
  group_releases(out.cudnn);  // a release whose first place is gone starts at its next
  return out;
}

}  // namespace

std::string write_job_caches(const MapLoad &load, const TableFacts &facts, const std::string &dir) {
  if (!load.map) return "the map has errors";
  const Parsed<FileStamp> stamp = settle_map_stamp(*load.map);
  if (!stamp) return stamp.error;
  const Map &map = *load.map;
  const Map reported = as_reported(map, facts);
  std::string why;
  for (TableKind kind : kAllTables) {
    const std::string text =
        kind == TableKind::cache     ? format_map_cache(map, load.diagnostics, *stamp)
        : kind == TableKind::fits    ? format_fits_table(reported, *stamp)
        : kind == TableKind::misfits ? format_misfits_table(reported, *stamp)
                                     : format_decision_table(map, *stamp, facts);
    if (why.empty()) why = write_file_atomically(table_path(map.path, kind, dir), text, map.path);
  }
  return why;
}

std::string write_job_caches(const MapLoad &load, const std::string &probe_helper) {
  if (!load.map) return "the map has errors";
  return write_job_caches(load, gather_table_facts(*load.map, {probe_helper, 10'000}));
}

std::string remove_job_caches(const std::string &map_path, const std::string &dir) {
  std::string why;
  for (TableKind kind : kAllTables)
    if (const std::string file = table_path(map_path, kind, dir);
        unlink(file.c_str()) != 0 && errno != ENOENT)
      why += (why.empty() ? "cannot remove " : ", ") + file + " (" + std::strerror(errno) + ")";
  return why.empty() ? why : why + "; jobs may still trust it while the map is unchanged";
}

}  // namespace cudnn_compat
