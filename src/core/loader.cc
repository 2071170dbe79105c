// The dynamic loader's search for a bare library name, as glibc's ld.so does it: the shim keeps
// what the loader would take when that fits, and `doctor` shows it. Reads ELF files and
// /etc/ld.so.cache; everything here is I/O at the edge.
#include "cudnn_compat.h"
#include "text.h"

#include <elf.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>

namespace cudnn_compat {
namespace {

std::string read_whole(const std::string &path, std::size_t limit) {
  std::ifstream in(path, std::ios::binary);
  std::string s;
  if (!in) return s;
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size <= 0 || std::size_t(size) > limit) return s;
  s.resize(std::size_t(size));
  in.seekg(0);
  in.read(s.data(), size);
  return s;
}

template <class T>
bool read_at(const std::string &data, std::uint64_t offset, T &out) {
  if (offset > data.size() || data.size() - offset < sizeof(T)) return false;
  std::memcpy(&out, data.data() + offset, sizeof(T));
  return true;
}

bool exists_file(const std::string &path) {
  std::error_code ec;
  return std::filesystem::is_regular_file(path, ec);
}

// After the requester's own directories: ld.so.cache, then the default directories.
void add_system_steps(const LoaderContext &in, std::vector<SearchStep> &steps) {
  steps.push_back({in.ld_cache, "ld.so.cache"});
  for (const char *d : {"/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib", "/usr/lib"})
    steps.push_back({d, "the default directories"});
}

}  // namespace

Parsed<ElfDynamic> read_elf_dynamic(const std::string &file) {
  // Only the headers and the dynamic section matter; 2 GiB covers any real library.
  const std::string data = read_whole(file, std::size_t(2) << 30);
  Elf64_Ehdr eh;
  if (!read_at(data, 0, eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0)
    return Parsed<ElfDynamic>::fail(file + " is not an ELF file (or cannot be read)");
  if (eh.e_ident[EI_CLASS] != ELFCLASS64)
    return Parsed<ElfDynamic>::fail(file + " is not a 64-bit ELF file");
  std::vector<Elf64_Phdr> loads;
  std::optional<Elf64_Phdr> dynamic;
  for (unsigned i = 0; i < eh.e_phnum; ++i) {
    Elf64_Phdr ph;
    if (!read_at(data, eh.e_phoff + std::uint64_t(i) * eh.e_phentsize, ph)) break;
    if (ph.p_type == PT_LOAD) loads.push_back(ph);
    if (ph.p_type == PT_DYNAMIC) dynamic = ph;
  }
  ElfDynamic out;
  if (!dynamic) return {out, {}};  // static: needs nothing
  // DT_STRTAB holds an address; the segments map it back to a file offset.
  const auto offset_of = [&](std::uint64_t addr) -> std::optional<std::uint64_t> {
    for (const Elf64_Phdr &l : loads)
      if (addr >= l.p_vaddr && addr < l.p_vaddr + l.p_filesz) return addr - l.p_vaddr + l.p_offset;
    return std::nullopt;
  };
  std::uint64_t strtab = 0;
  std::vector<std::pair<std::int64_t, std::uint64_t>> strings;
  for (std::uint64_t at = dynamic->p_offset; at < dynamic->p_offset + dynamic->p_filesz;
       at += sizeof(Elf64_Dyn)) {
    Elf64_Dyn d;
    if (!read_at(data, at, d) || d.d_tag == DT_NULL) break;
    if (d.d_tag == DT_STRTAB) strtab = d.d_un.d_ptr;
    if (d.d_tag == DT_NEEDED || d.d_tag == DT_RPATH || d.d_tag == DT_RUNPATH ||
        d.d_tag == DT_SONAME)
      strings.emplace_back(d.d_tag, d.d_un.d_val);
  }
  const std::optional<std::uint64_t> base = offset_of(strtab);
  if (!base) return Parsed<ElfDynamic>::fail(file + " has no readable string table");
  for (const auto &[tag, index] : strings) {
    if (*base + index >= data.size()) continue;
    const char *s = data.c_str() + *base + index;
    const std::string value(s, strnlen(s, data.size() - *base - index));
    if (tag == DT_NEEDED) out.needed.push_back(value);
    if (tag == DT_RPATH) out.rpath = value;
    if (tag == DT_RUNPATH) out.runpath = value;
    if (tag == DT_SONAME) out.soname = value;
  }
  return {out, {}};
}

std::vector<std::string> expand_search_path(std::string_view list, const std::string &origin) {
  std::vector<std::string> dirs;
  for (std::string_view entry : split(list, ':')) {
    std::string dir;
    for (std::size_t i = 0; i < entry.size(); ++i) {
      std::string_view rest = entry.substr(i);
      if (rest.starts_with("$ORIGIN") || rest.starts_with("${ORIGIN}")) {
        dir += origin;
        i += rest.starts_with("$ORIGIN") ? 6 : 8;
      } else if (rest.starts_with("$LIB") || rest.starts_with("${LIB}")) {
        dir += "lib/x86_64-linux-gnu";  // Debian's multiarch expansion on x86_64
        i += rest.starts_with("$LIB") ? 3 : 5;
      } else if (rest.starts_with("$PLATFORM") || rest.starts_with("${PLATFORM}")) {
        dir += "x86_64";
        i += rest.starts_with("$PLATFORM") ? 8 : 10;
      } else {
        dir += entry[i];
      }
    }
    // An empty entry means the working directory, as the loader reads it.
    dirs.push_back(dir.empty() ? "." : dir);
  }
  return dirs;
}

std::optional<std::string> ld_cache_lookup(const std::string &name, const std::string &cache) {
  // glibc 2.32+ writes only the new format: a 48-byte header, then 24-byte entries whose key and
  // value are offsets of strings from the start of the file.
  const std::string data = read_whole(cache, std::size_t(64) << 20);
  constexpr std::string_view magic = "glibc-ld.so.cache1.1";
  if (data.compare(0, magic.size(), magic) != 0) return std::nullopt;
  std::uint32_t count = 0;
  if (!read_at(data, 20, count)) return std::nullopt;
  struct Entry {
    std::int32_t flags;
    std::uint32_t key, value, osversion;
    std::uint64_t hwcap;
  };
  constexpr std::int32_t kElfLibc6 = 0x0003, kX8664 = 0x0300;
  for (std::uint32_t i = 0; i < count; ++i) {
    Entry e;
    if (!read_at(data, 48 + std::uint64_t(i) * sizeof(Entry), e)) break;
    if ((e.flags & 0xff) != kElfLibc6 || (e.flags & 0xff00) != kX8664) continue;
    if (e.key >= data.size() || e.value >= data.size()) continue;
    if (name == data.c_str() + e.key) return std::string(data.c_str() + e.value);
  }
  return std::nullopt;
}

std::vector<SearchStep> loader_search_path(const LoaderContext &in) {
  std::vector<SearchStep> steps;
  const auto add = [&](std::string_view list, const std::string &origin, const std::string &from) {
    for (std::string &d : expand_search_path(list, origin)) steps.push_back({std::move(d), from});
  };
  if (in.before_cache) {
    steps = *in.before_cache;
    add_system_steps(in, steps);
    return steps;
  }
  const auto origin_of = [](const std::string &file) {
    return std::filesystem::path(file).parent_path().string();
  };
  std::optional<ElfDynamic> requester;
  if (!in.requester.empty())
    if (Parsed<ElfDynamic> d = read_elf_dynamic(in.requester)) requester = *d;
  // DT_RPATH counts only where the requester has no DT_RUNPATH; the executable's RPATH is
  // inherited by every object it loads.
  if (requester && requester->runpath.empty()) {
    if (!requester->rpath.empty())
      add(requester->rpath, origin_of(in.requester), "RPATH of " + in.requester);
    if (!in.executable.empty() && in.executable != in.requester)
      if (Parsed<ElfDynamic> exe = read_elf_dynamic(in.executable);
          exe && exe->runpath.empty() && !exe->rpath.empty())
        add(exe->rpath, origin_of(in.executable), "RPATH of " + in.executable);
  }
  if (!in.secure && !in.ld_library_path.empty()) add(in.ld_library_path, "", "LD_LIBRARY_PATH");
  if (requester && !requester->runpath.empty())
    add(requester->runpath, origin_of(in.requester), "RUNPATH of " + in.requester);
  add_system_steps(in, steps);
  return steps;
}

std::optional<LoaderHit> loader_search(const std::string &name, const LoaderContext &in) {
  if (name.find('/') != std::string::npos)
    return exists_file(name) ? std::optional<LoaderHit>({name, "the path asked for"})
                             : std::nullopt;
  for (const SearchStep &s : loader_search_path(in)) {
    if (s.from == "ld.so.cache") {
      if (std::optional<std::string> hit = ld_cache_lookup(name, s.dir); hit && exists_file(*hit))
        return LoaderHit{*hit, s.from};
      continue;
    }
    const std::string candidate = s.dir + "/" + name;
    if (exists_file(candidate)) return LoaderHit{candidate, s.from};
  }
  return std::nullopt;
}

bool dir_holds_cudnn(const std::string &dir) {
  std::error_code ec;
  for (std::filesystem::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const Parsed<LibraryName> n = parse_library_name(it->path().filename().string());
    if (n && n->sub.empty() && n->version && !n->windows) return true;
  }
  return false;
}

}  // namespace cudnn_compat
