// The version a cuDNN library reports about itself: the library, else its header, else its name.
#include "elf_file.h"
#include "spawn_process.h"
#include "system.h"
#include "text.h"

#include "shared/family_path.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <set>

namespace cudnn_compat {
namespace {

namespace fs = std::filesystem;

// What a probe may say that is kept: its lines are a few dozen bytes; a library that prints in
// its constructor is cut here.
constexpr std::size_t kProbeOutputMax = 65536;
// cuDNN 9 has seven sub-libraries; a library that names more files than this is not believed for
// the rest (the memo's entry stays within its bound).
constexpr std::size_t kFamilyMax = 16;

// The child's environment: the caller's, without anything that would load a shim or preload into
// it, with the shim switched off should one come in another way (a system-wide preload), and
// with the library's family from its own directory, as the shim hands it over.
std::vector<std::string> child_environment(const std::string &file) {
  static const char *const dropped[] = CUDNN_COMPAT_PROBE_DROPPED_ENV;
  std::vector<std::string> out;
  std::string_view ld_library_path;
  for (char **e = environ; *e; ++e) {
    const std::string_view v = *e;
    if (v.starts_with("LD_LIBRARY_PATH=")) ld_library_path = v.substr(16);
    if (std::none_of(std::begin(dropped), std::end(dropped),
                     [&](const char *d) { return v.starts_with(d); }))
      out.emplace_back(v);
  }
  const std::string dir = fs::path(file).parent_path().string();
  const std::optional<Version> named = version_in_name(file);
  out.push_back("LD_LIBRARY_PATH=" +
                family_library_path(ld_library_path, dir.empty() ? "." : dir,
                                    named ? std::optional<int>(named->major) : std::nullopt));
  out.emplace_back(CUDNN_COMPAT_PROBE_SWITCH_OFF);
  return out;
}

struct HelperAnswer {
  std::optional<Version> version;
  std::optional<Version> cuda;
  std::vector<std::string> family;
  std::string why;  // when version is absent
  bool ran = true;  // the helper answered or ended (else why says what stopped it, or its time)
  std::string load_error = {};  // what the helper said of a load that failed ("error TEXT")
};

// "the library gave no answer within 1.5 s": a probe that ran out of time judged nothing.
std::string no_answer_within(int timeout_ms) {
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.1f", timeout_ms / 1000.0);
  return std::string("the library gave no answer within ") + seconds + " s";
}

std::string describe_end(const SpawnResult &run) {
  if (run.signal) return std::string("crashed while loading (") + strsignal(*run.signal) + ")";
  return "exited with status " + std::to_string(run.exit_code.value_or(-1));
}

// The helper's lines: "version N", "cudart N", "family PATH", "error TEXT" (probe_helper.c).
HelperAnswer read_lines(std::string_view out, std::string &error) {
  HelperAnswer a;
  for (std::string_view line : split(out, '\n')) {
    if (line.starts_with("version "))
      a.version = parse_cudnn_number(line.substr(8)).value;
    else if (line.starts_with("cudart "))
      a.cuda = parse_cudart_number(line.substr(7)).value;
    else if (line.starts_with("family ") && a.family.size() < kFamilyMax)
      a.family.emplace_back(line.substr(7));
    else if (line.starts_with("error "))
      error = std::string(line.substr(6));
  }
  return a;
}

std::string file_bytes(const fs::path &file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A sub-library file the loader could map: a regular file that starts as an ELF file does (an
// empty or cut-short copy fails only at first use, CUDNN_STATUS_SUBLIBRARY_LOADING_FAILED).
bool looks_loadable(const fs::path &path) {
  const int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return false;
  struct stat st {};
  char magic[4] = {};
  static constexpr char kElf[4] = {0x7f, 'E', 'L', 'F'};
  const bool ok = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && read(fd, magic, 4) == 4 &&
                  std::memcmp(magic, kElf, 4) == 0;
  close(fd);
  return ok;
}

// The sub-libraries the family of the dispatcher `file` loads: its major's (sub_libraries), and
// those of its directory that it or its graph library names (later 9.x add their own,
// libcudnn_engines_tensor_ir.so.9); a stray file of another release it never loads is none.
std::set<std::string> family_subs(const fs::path &dir, const std::string &file, int major) {
  std::set<std::string> subs(sub_libraries(major).begin(), sub_libraries(major).end());
  std::optional<std::set<std::string>> named;  // read once, only for a file beyond the major's
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const Parsed<LibraryName> n = parse_library_name(it->path().filename().string());
    if (!n || n->windows || n->sub.empty() || !n->version || n->version->major != major ||
        subs.contains(n->sub))
      continue;
    if (!named) named = family_named_subs(file, major);
    if (named->contains(n->sub)) subs.insert(n->sub);
  }
  return subs;
}

// cuDNN 9's dispatcher maps libcudnn_heuristic and libcudnn_engines_* only when a handle is first
// used on a GPU, and they export no version to check, so the helper's load never sees them. Those
// the dispatcher would take from the library's own directory join the family here, so that the
// answer (and the memo) rests on them too. The family is no answer when one is no library, or
// when its real file's name gives another release - where names tell the truth here: the
// library's own real file is named for the release it reports, or carries the major alone. One
// named with the major only (a wheel's) cannot be told apart this way: docs/status.md.
std::string judge_later_subs(HelperAnswer &a, const std::string &file) {
  const fs::path dir = fs::path(file).parent_path().empty() ? "." : fs::path(file).parent_path();
  const Version &v = *a.version;
  std::error_code ec;
  const std::optional<Version> own = version_in_name(fs::canonical(file, ec).string());
  const bool names_tell = !ec && (!own || is_prefix_of(*own, v));
  std::set<std::string> subs = family_subs(dir, file, v.major);
  for (const std::string &mapped : a.family)
    if (const Parsed<LibraryName> n = parse_library_name(mapped)) subs.erase(n->sub);
  for (const std::string &sub : subs)
    for (const std::string &name : dispatcher_asks(sub, v)) {
      const fs::path path = dir / name;
      if (!fs::exists(path, ec)) continue;
      if (a.family.size() < kFamilyMax) a.family.push_back(path.string());
      if (!looks_loadable(path))
        return "its family is not whole: " + path.string() +
               " is no library (empty, cut short or not an ELF file)";
      const fs::path real = fs::canonical(path, ec);
      const std::optional<Version> named = ec ? std::nullopt : version_in_name(real.string());
      if (names_tell && named && !is_prefix_of(*named, v))
        return "its sub-libraries are not one release: " + path.string() + " is " +
               real.filename().string() + ", of cuDNN " + to_string(*named) + ", the library " +
               to_string(v);
      break;
    }
  return "";
}

// The helper's answer for file, judged on the sub-libraries its load did not map: error says why
// a family that is not one release is no answer.
HelperAnswer read_answer(std::string_view out, const std::string &file, std::string &error) {
  HelperAnswer a = read_lines(out, error);
  if (!a.version) return a;
  if (std::string why = judge_later_subs(a, file); !why.empty()) {
    error = std::move(why);
    a.version.reset();
  }
  return a;
}

HelperAnswer ask_helper(const std::string &file, const ProbeOptions &options) {
  SpawnOptions how;
  how.env = child_environment(file);
  how.err = Output::into_stdout;
  how.timeout_ms = options.timeout_ms;
  // Default signals, none blocked: a library that crashes must crash here, visibly, even when the
  // caller (the shim's engine) was started with every signal blocked.
  how.default_signals = true;
  how.max_output = kProbeOutputMax;
  const SpawnResult run = spawn_process({options.helper, file}, how);
  if (!run.started) return {{}, {}, {}, run.error, false};

  std::string error;
  HelperAnswer a = read_answer(run.out, file, error);
  if (a.version) return a;
  a.cuda.reset();
  if (run.timed_out) {
    a.why = no_answer_within(options.timeout_ms);
    a.ran = false;  // no check was made: the next process may have more time
  } else if (!error.empty()) {
    a.why = "the library did not load: " + (a.load_error = error);
  } else if (run.exit_code == 0) {
    a.why = "the library reported an unknown version";
  } else {
    a.why = "the library " + describe_end(run);
  }
  return a;
}

// CUDNN_MAJOR/MINOR/PATCHLEVEL from a header: cudnn_version.h from 8.0 on, cudnn.h before.
std::optional<Version> header_version(const fs::path &header) {
  std::ifstream in(header);
  std::optional<int> major, minor, patch;
  for (std::string line; std::getline(in, line);) {
    std::string_view s = trim(line);
    if (!s.starts_with("#define")) continue;
    s = trim(s.substr(7));
    const std::size_t space = s.find_first_of(" \t");
    if (space == std::string_view::npos) continue;
    const std::string_view name = s.substr(0, space);
    const std::optional<std::int64_t> value = parse_uint(trim(s.substr(space)));
    if (!value || *value > 99999) continue;
    if (name == "CUDNN_MAJOR")
      major = int(*value);
    else if (name == "CUDNN_MINOR")
      minor = int(*value);
    else if (name == "CUDNN_PATCHLEVEL")
      patch = int(*value);
  }
  if (!major || !minor || !patch) return std::nullopt;
  return Version{*major, minor, patch, {}};
}

// Whether two files hold the same bytes, up to `first` of them (all, by default).
bool same_bytes(const std::string &a, const std::string &b,
                std::uintmax_t first = std::numeric_limits<std::uintmax_t>::max()) {
  std::ifstream x(a, std::ios::binary), y(b, std::ios::binary);
  std::vector<char> p(1 << 16), q(1 << 16);
  for (std::uintmax_t read = 0; x && y && read < first; read += p.size()) {
    x.read(p.data(), std::streamsize(p.size()));
    y.read(q.data(), std::streamsize(q.size()));
    if (x.gcount() != y.gcount() || std::memcmp(p.data(), q.data(), std::size_t(x.gcount())) != 0)
      return false;
  }
  return (x.eof() && y.eof()) || (x && y);
}

// Whether the sub-libraries an answer rests on stand beside `file` as they stood beside the
// library that gave it: each of its directory's has a namesake here whose links end at a file of
// the same name and size, whose first 64 KiB (the ELF headers and build-id note of a build) are the
// same (a family copied whole; the answer depends on the directory, not on the dispatcher's bytes
// alone; an outside tester's copy of another release's file under the right name, of the same
// size, was answered from memory). One taken from elsewhere: no telling, no answer from memory.
bool same_family_beside(const Probe &known, const std::string &file) {
  const fs::path from = fs::path(known.file).parent_path().lexically_normal();
  const fs::path here = fs::path(file).parent_path();
  for (const std::string &member : known.family) {
    const fs::path m = fs::path(member).lexically_normal();
    if (m.parent_path() != from) return false;
    std::error_code a, b, c, d;
    const fs::path was = fs::canonical(m, a), is = fs::canonical(here / m.filename(), b);
    if (a || b || was.filename() != is.filename() ||
        fs::file_size(was, c) != fs::file_size(is, d) || c || d ||
        !same_bytes(was.string(), is.string(), 1 << 16))
      return false;
  }
  return true;
}

// What a library byte for byte the same as this one, with its family beside it alike, answered,
// when the memo has it.
std::optional<Probe> remembered(const std::string &file, std::uintmax_t size,
                                const ProbeMemo &memo) {
  const auto same_size = memo.answered.find(size);
  if (same_size == memo.answered.end()) return std::nullopt;
  for (Probe p : same_size->second)
    if (same_family_beside(p, file) && same_bytes(p.file, file)) {
      p.file = file;
      return p;
    }
  return std::nullopt;
}

Parsed<Probe> probe_file(const std::string &file, const ProbeOptions &options) {
  Probe p{file, {}, std::nullopt, ProbeSource::library, {}};
  std::error_code size_ec;
  const std::uintmax_t size = options.memo ? fs::file_size(file, size_ec) : 0;
  const bool memo = options.memo && !size_ec;
  if (memo)
    if (std::optional<Probe> known = remembered(file, size, *options.memo)) return {*known, {}};
  const HelperAnswer a = ask_helper(file, options);
  if (a.version) {
    p.version = *a.version;
    p.cuda = a.cuda;
    p.family = a.family;
    if (memo) options.memo->answered[size].push_back(p);
    return {p, {}};
  }
  p.note = a.why;
  p.family = a.family;
  p.failed = a.load_error;
  if (!a.ran) p.not_run = a.why;
  const std::optional<Version> named = version_in_name(file);
  const fs::path dir = fs::path(file).parent_path();
  for (const fs::path &h : {dir / "cudnn_version.h", dir / ".." / "include" / "cudnn_version.h",
                            dir / "cudnn.h", dir / ".." / "include" / "cudnn.h"}) {
    std::error_code ec;
    if (!fs::exists(h, ec)) continue;
    const std::optional<Version> v = header_version(h);
    if (!v) continue;
    if (named && named->major != v->major) {
      p.note += "; " + h.lexically_normal().string() + " is of cuDNN " + to_string(*v) +
                ", another major";
      continue;
    }
    p.version = *v;
    p.source = ProbeSource::header;
    p.note += "; read " + h.lexically_normal().string();
    return {p, {}};
  }
  // The real file's name often carries the full version where the SONAME carries the major.
  std::error_code ec;
  const fs::path real = fs::canonical(file, ec);
  const std::optional<Version> from_name = ec ? named : version_in_name(real.string());
  if (!from_name && !named)
    return Parsed<Probe>::fail(file + ": " + p.note +
                               "; no version header beside it and no version in its name");
  p.version = from_name ? *from_name : *named;
  p.source = ProbeSource::filename;
  return {p, {}};
}

// The bytes of file where a library keeps the names it passes to dlopen: its read-only data
// (.rodata*); the whole file when it has no section table. A real libcudnn_graph.so.9 is 4.4 MB,
// of which that is 0.3 MB.
std::string name_bytes(const std::string &file) {
  const Fd fd(file);
  struct stat st {};
  if (!fd.ok() || stat(file.c_str(), &st) != 0) return {};
  const ElfSections found = elf_sections(fd, std::uint64_t(st.st_size));
  if (found.sections.empty()) return file_bytes(file);
  std::string bytes;
  for (const ElfSection &s : found.sections) {
    if (!s.within || !s.name.starts_with(".rodata")) continue;
    const std::size_t at = bytes.size();
    bytes.resize(at + s.size + 1);  // a NUL between two sections: no name runs across them
    if (!fd.read(s.offset, bytes.data() + at, s.size)) bytes.resize(at);
  }
  return bytes;
}

}  // namespace

std::set<std::string> named_subs(const std::string &file) {
  static constexpr std::string_view kStem = "libcudnn_";
  const std::string bytes = name_bytes(file);
  std::set<std::string> subs;
  for (std::size_t at = bytes.find(kStem); at != std::string::npos;
       at = bytes.find(kStem, at + 1)) {
    std::size_t end = at + kStem.size();
    while (end < bytes.size() && word_char(bytes[end])) ++end;
    if (end > at + kStem.size() && std::string_view(bytes).substr(end).starts_with(".so"))
      subs.emplace(bytes, at + kStem.size(), end - at - kStem.size());
  }
  return subs;
}

std::set<std::string> family_named_subs(const std::string &dispatcher, int major) {
  std::set<std::string> subs = named_subs(dispatcher);
  const fs::path dir = fs::path(dispatcher).parent_path();
  subs.merge(named_subs(dir / library_file("graph", major)));
  return subs;
}

std::vector<std::string> lacking_subs(const std::string &dispatcher, const Version &v) {
  // Held under any of the names the dispatcher asks; the loader may find one elsewhere, and the
  // shim lends one of the family's release, but a place handed over whole must hold them.
  const fs::path dir = fs::path(dispatcher).parent_path();
  std::vector<std::string> out;
  for (const std::string &sub : family_named_subs(dispatcher, v.major)) {
    const std::vector<std::string> names = dispatcher_asks(sub, v);
    if (std::none_of(names.begin(), names.end(), [&](const std::string &n) {
          std::error_code ec;
          return fs::exists(dir / n, ec);
        }))
      out.push_back(library_file(sub, v.major));
  }
  return out;
}

std::string_view to_string(ProbeSource s) {
  switch (s) {
    case ProbeSource::library:
      return "library";
    case ProbeSource::header:
      return "header";
    case ProbeSource::filename:
      return "filename";
  }
  return "?";
}

Parsed<std::vector<Probe>> probe(const std::string &path, const ProbeOptions &options) {
  std::error_code ec;
  const fs::file_status st = fs::status(path, ec);
  if (ec || !fs::exists(st))
    return Parsed<std::vector<Probe>>::fail(path + ": no such file or directory");
  if (!fs::is_directory(st)) {
    const Parsed<LibraryName> name = parse_library_name(path);
    if (name && !name->sub.empty())
      return Parsed<std::vector<Probe>>::fail(
          path + " is a cuDNN sub-library; probe libcudnn.so.<major> or its directory");
    Parsed<Probe> one = probe_file(path, options);
    if (!one) return Parsed<std::vector<Probe>>::fail(one.error);
    return {std::vector<Probe>{*one}, {}};
  }
  std::set<int> majors;
  for (fs::directory_iterator it(path, ec), end; !ec && it != end; it.increment(ec)) {
    const Parsed<LibraryName> name = parse_library_name(it->path().filename().string());
    if (name && name->sub.empty() && name->version && !name->windows)
      majors.insert(name->version->major);
  }
  std::vector<Probe> out;
  for (int major : majors) {
    const std::optional<std::string> f = find_library_file(path, main_library(major), major);
    if (!f) continue;
    Parsed<Probe> one = probe_file(*f, options);
    if (!one) return Parsed<std::vector<Probe>>::fail(one.error);
    out.push_back(*one);
  }
  if (out.empty()) return Parsed<std::vector<Probe>>::fail(path + " holds no libcudnn.so.<major>");
  return {out, {}};
}

LibraryCheck check_library(const std::string &file, const ProbeOptions &options) {
  const Parsed<std::vector<Probe>> p = probe(file, options);
  if (!p || p->empty()) return {};
  if (p->front().source != ProbeSource::library)
    return {std::nullopt, p->front().not_run, p->front().family, p->front().failed};
  return {p->front()};
}

std::optional<LibraryCheck> read_probe_answer(int fd, const std::string &file, int timeout_ms) {
  bool late = false;
  const std::string out = read_stream(fd, timeout_ms, kProbeOutputMax, late);
  std::string error;
  const HelperAnswer a = read_answer(out, file, error);
  if (a.version)
    return LibraryCheck{Probe{file, *a.version, a.cuda, ProbeSource::library, {}, {}, a.family}};
  if (late) return LibraryCheck{std::nullopt, no_answer_within(timeout_ms)};
  return std::nullopt;
}

std::optional<Probe> probe_library(const std::string &file, const ProbeOptions &options) {
  return check_library(file, options).probe;
}

}  // namespace cudnn_compat
