// /etc/ld.so.cache as glibc's ld.so reads it (elf/dl-cache.c, sysdeps/generic/dl-cache.h), in
// all three layouts: the new format alone ("glibc-ld.so.cache1.1", glibc >= 2.32's default),
// the old one alone ("ld.so-1.7.0") and the compat layout RHEL 8 and Ubuntu 20.04 write (the old
// header and table, then the new format at the next 8-byte boundary, which ld.so prefers).
#include "system.h"

#include <cstring>
#include <fstream>
#include <iterator>

namespace cudnn_compat {
namespace {

constexpr std::string_view kOldMagic = "ld.so-1.7.0", kNewMagic = "glibc-ld.so.cache1.1";
constexpr std::int32_t kX8664Libc6 = 0x0303;  // FLAG_X8664_LIB64 | FLAG_ELF_LIBC6
constexpr std::uint64_t kHwcapExtension = 1ULL << 62;
constexpr std::uint32_t kExtensionMagic = 0xeaa42174, kTagGlibcHwcaps = 1;
constexpr std::uint64_t kIsaLevelMask = (1u << 10) - 1;

template <class T>
std::optional<T> at(std::string_view data, std::uint64_t offset) {
  T out;
  if (offset > data.size() || data.size() - offset < sizeof(T)) return std::nullopt;
  std::memcpy(&out, data.data() + offset, sizeof(T));
  return out;
}

std::optional<std::string_view> string_at(std::string_view data, std::uint64_t offset) {
  if (offset >= data.size()) return std::nullopt;
  const std::string_view rest = data.substr(offset);
  const std::size_t nul = rest.find('\0');
  if (nul == std::string_view::npos) return std::nullopt;
  return rest.substr(0, nul);
}

// The glibc-hwcaps subdirectory names of the extension section; their offsets, like the
// section's, count from the start of the file.
std::vector<std::string_view> hwcaps_names(std::string_view file, std::uint64_t header) {
  std::vector<std::string_view> names;
  const std::optional<std::uint32_t> ext = at<std::uint32_t>(file, header + 32);
  if (!ext || *ext == 0 || at<std::uint32_t>(file, *ext) != kExtensionMagic) return names;
  const std::uint32_t count = at<std::uint32_t>(file, *ext + 4).value_or(0);
  for (std::uint32_t i = 0; i < count && i < 64; ++i) {
    const std::uint64_t s = *ext + 8 + std::uint64_t(i) * 16;
    if (at<std::uint32_t>(file, s) != kTagGlibcHwcaps) continue;
    const std::uint32_t offset = at<std::uint32_t>(file, s + 8).value_or(0);
    const std::uint32_t size = at<std::uint32_t>(file, s + 12).value_or(0);
    for (std::uint32_t k = 0; k + 4 <= size; k += 4) {
      const std::optional<std::uint32_t> index = at<std::uint32_t>(file, offset + k);
      names.push_back(index ? string_at(file, *index).value_or("") : "");
    }
  }
  return names;
}

struct Table {
  std::uint64_t entries = 0, count = 0, entry_size = 0, strings = 0;  // offsets into the file
};

// The table ld.so searches: the new one when there is one, else the old one.
std::optional<Table> find_table(std::string_view file) {
  if (file.starts_with(kNewMagic)) return Table{48, at<std::uint32_t>(file, 20).value_or(0), 24, 0};
  if (!file.starts_with(kOldMagic)) return std::nullopt;
  const std::uint64_t old_count = at<std::uint32_t>(file, 12).value_or(0);
  const std::uint64_t old_end = 16 + old_count * 12;
  const std::uint64_t next = (old_end + 7) & ~std::uint64_t(7);
  if (next < file.size() && file.substr(next).starts_with(kNewMagic))
    return Table{next + 48, at<std::uint32_t>(file, next + 20).value_or(0), 24, next};
  return Table{16, old_count, 12, old_end};
}

}  // namespace

std::optional<std::string> ld_cache_find(std::string_view file, std::string_view name,
                                         const std::vector<std::string> &hwcaps) {
  const std::optional<Table> t = find_table(file);
  if (!t) return std::nullopt;
  const bool has_hwcap = t->entry_size == 24;
  const std::vector<std::string_view> subdirs =
      has_hwcap ? hwcaps_names(file, t->strings) : std::vector<std::string_view>{};
  // ISA level bits an entry may carry: baseline and each supported level, in order.
  const std::uint64_t isa_ok = (2ULL << hwcaps.size()) - 1;
  std::optional<std::string_view> best;
  std::size_t best_rank = hwcaps.size();
  for (std::uint64_t i = 0; i < t->count; ++i) {
    const std::uint64_t e = t->entries + i * t->entry_size;
    const std::optional<std::int32_t> flags = at<std::int32_t>(file, e);
    const std::optional<std::uint32_t> key = at<std::uint32_t>(file, e + 4);
    const std::optional<std::uint32_t> value = at<std::uint32_t>(file, e + 8);
    if (!flags || !key || !value) break;
    if (*flags != kX8664Libc6 || string_at(file, t->strings + *key) != name) continue;
    const std::optional<std::string_view> path = string_at(file, t->strings + *value);
    const std::uint64_t hwcap = has_hwcap ? at<std::uint64_t>(file, e + 16).value_or(0) : 0;
    if (!path) continue;
    if (((hwcap >> 32) & ~kIsaLevelMask) == (kHwcapExtension >> 32)) {
      // An entry from a glibc-hwcaps subdirectory: the best one this CPU supports wins.
      if (((hwcap >> 32) & kIsaLevelMask & ~isa_ok) != 0) continue;
      const std::uint32_t index = std::uint32_t(hwcap);
      if (index >= subdirs.size()) continue;
      for (std::size_t r = 0; r < best_rank; ++r)
        if (hwcaps[r] == subdirs[index]) best = path, best_rank = r;
    } else if (hwcap == 0 && !best) {
      return std::string(*path);  // hwcaps entries come first; none fit
    }
  }
  return best ? std::optional<std::string>(std::string(*best)) : std::nullopt;
}

std::optional<std::string> ld_cache_lookup(const std::string &name, const std::string &cache,
                                           const std::vector<std::string> &hwcaps) {
  std::ifstream in(cache, std::ios::binary);
  if (!in) return std::nullopt;
  std::string data;
  in.seekg(0, std::ios::end);
  const std::streamoff size = in.tellg();
  if (size <= 0 || size > (std::streamoff(64) << 20)) return std::nullopt;
  data.resize(std::size_t(size));
  in.seekg(0);
  in.read(data.data(), size);
  return ld_cache_find(data, name, hwcaps);
}

std::vector<std::string> glibc_hwcaps_subdirs() {
  // glibc's order (sysdeps/x86_64/dl-hwcaps-subdirs.c), each only where the CPU and kernel
  // support the whole level, as ld.so itself decides from the CPU's features.
  std::vector<std::string> out;
#if defined(__x86_64__)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("x86-64-v4")) out.emplace_back("x86-64-v4");
  if (__builtin_cpu_supports("x86-64-v3")) out.emplace_back("x86-64-v3");
  if (__builtin_cpu_supports("x86-64-v2")) out.emplace_back("x86-64-v2");
#endif
  return out;
}

}  // namespace cudnn_compat
