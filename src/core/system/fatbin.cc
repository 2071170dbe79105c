// The device code a library carries: the fatbin containers of its .nv_fatbin section. Only the
// headers are read (a container header, then each entry's header, skipping its payload), so a
// 245 MB libcudnn_engines_precompiled.so.9 costs a few thousand small preads, never its cubins.
//
// Layout (little-endian), as cuobjdump reads it and as measured on the real cuDNN 9.19:
//   container: u32 magic 0xBA55ED50, u16 version 1, u16 header size (16), u64 size of its entries;
//   entry:     u16 kind (1 PTX, 2 ELF cubin), u16, u32 entry header size, u64 payload size, ...,
//              u32 arch at offset 28 (75 for sm_75); the next entry follows the payload.
// Containers follow each other, padded to 8 bytes where a linker joined them.
#include "elf_file.h"
#include "system.h"

#include <elf.h>
#include <sys/stat.h>

#include <filesystem>
#include <set>

namespace cudnn_compat {
namespace {

constexpr std::uint32_t kMagic = 0xBA55ED50u;
constexpr std::uint64_t kEntryHeader = 32;  // up to and including the arch

template <class T>
T field(const unsigned char *p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

std::string at(std::uint64_t offset) {
  return "at byte " + std::to_string(offset);
}

// One container's entries, from begin to end (both within the section).
std::string read_entries(const ReadAt &read, std::uint64_t begin, std::uint64_t end,
                         DeviceCode &code) {
  for (std::uint64_t e = begin; e < end;) {
    unsigned char h[kEntryHeader];
    if (end - e < kEntryHeader || !read(e, h, sizeof h))
      return "an entry header " + at(e) + " is cut short";
    const std::uint32_t header = field<std::uint32_t>(h + 4), arch = field<std::uint32_t>(h + 28);
    const std::uint64_t payload = field<std::uint64_t>(h + 8);
    if (header < kEntryHeader)
      return "an entry " + at(e) + " has a header of " + std::to_string(header) +
             " bytes (no fatbin has fewer than 32)";
    if (payload > end - e - header)
      return "an entry " + at(e) + " claims " + std::to_string(payload) +
             " bytes, more than its container holds";
    const std::uint16_t kind = field<std::uint16_t>(h);
    if ((kind == 1 || kind == 2) && (arch < 10 || arch > 1000))
      return "an entry " + at(e) + " is for architecture " + std::to_string(arch) +
             ", which no GPU has";
    if (kind == 1) code.ptx.insert(int(arch));
    if (kind == 2) code.cubin.insert(int(arch));
    e += header + payload;
  }
  return "";
}

}  // namespace

Parsed<DeviceCode> parse_fatbin(const ReadAt &read, std::uint64_t size) {
  DeviceCode code;
  for (std::uint64_t pos = 0; pos < size;) {
    if (pos % 8 != 0) {  // a linker's padding between two containers
      pos = std::min(size, (pos + 7) / 8 * 8);
      continue;
    }
    unsigned char h[16];
    if (size - pos < sizeof h || !read(pos, h, sizeof h))
      return Parsed<DeviceCode>::fail("a container header " + at(pos) + " is cut short");
    if (field<std::uint32_t>(h) != kMagic)
      return Parsed<DeviceCode>::fail("no fatbin container " + at(pos) + " (magic 0x" + [&] {
        char hex[9];
        std::snprintf(hex, sizeof hex, "%08x", field<std::uint32_t>(h));
        return std::string(hex);
      }() + ", not 0xba55ed50)");
    const std::uint16_t version = field<std::uint16_t>(h + 4), header = field<std::uint16_t>(h + 6);
    const std::uint64_t entries = field<std::uint64_t>(h + 8);
    if (version != 1 || header < 16)
      return Parsed<DeviceCode>::fail("a container " + at(pos) + " has version " +
                                      std::to_string(version) + " and a header of " +
                                      std::to_string(header) + " bytes (known: 1 and 16)");
    if (header > size - pos || entries > size - pos - header)
      return Parsed<DeviceCode>::fail("a container " + at(pos) + " of " + std::to_string(entries) +
                                      " bytes is cut short: the section "
                                      "ends after " +
                                      std::to_string(size - pos) + " bytes");
    const std::string why = read_entries(read, pos + header, pos + header + entries, code);
    if (!why.empty()) return Parsed<DeviceCode>::fail(why);
    pos += header + entries;
  }
  return {code, {}};
}

namespace {

// The .nv_fatbin section's offset and size; {0, 0} when the file has none.
Parsed<std::pair<std::uint64_t, std::uint64_t>> fatbin_section(const Fd &fd,
                                                               std::uint64_t file_size) {
  using Result = Parsed<std::pair<std::uint64_t, std::uint64_t>>;
  const ElfSections found = elf_sections(fd, file_size);
  if (!found.error.empty()) return Result::fail(found.error);
  for (const ElfSection &s : found.sections)
    if (s.name == ".nv_fatbin")
      return s.within ? Result{std::pair{s.offset, s.size}, {}}
                      : Result::fail("has a .nv_fatbin section that runs past the end of the file");
  return {std::pair<std::uint64_t, std::uint64_t>{0, 0}, {}};
}

}  // namespace

Parsed<DeviceCode> read_device_code(const std::string &file) {
  const Fd fd(file);
  struct stat st {};
  if (!fd.ok() || stat(file.c_str(), &st) != 0)
    return Parsed<DeviceCode>::fail(file + " cannot be read");
  const auto section = fatbin_section(fd, std::uint64_t(st.st_size));
  if (!section) return Parsed<DeviceCode>::fail(file + " " + section.error);
  const auto [offset, size] = *section;
  const ReadAt read = [&, offset = offset, size = size](std::uint64_t at, void *out,
                                                        std::size_t n) {
    return at <= size && n <= size - at && fd.read(offset + at, out, n);
  };
  Parsed<DeviceCode> code = parse_fatbin(read, size);
  if (!code) code.error = file + ": .nv_fatbin: " + code.error;
  return code;
}

Parsed<ReleaseCode> read_release_code(const std::string &dir, int major) {
  namespace fs = std::filesystem;
  const std::string suffix = ".so." + std::to_string(major);
  std::set<std::string> names;
  std::error_code ec;
  for (const fs::directory_entry &d : fs::directory_iterator(dir, ec)) {
    const std::string name = d.path().filename().string();
    if (name.starts_with("libcudnn") && name.ends_with(suffix)) names.insert(name);
  }
  ReleaseCode out;
  std::set<std::string> seen;  // one file under two names is read once
  for (const std::string &name : names) {
    const std::string file = dir + "/" + name;
    if (!seen.insert(fs::canonical(file, ec).string()).second) continue;
    Parsed<DeviceCode> code = read_device_code(file);
    if (!code) return Parsed<ReleaseCode>::fail(code.error);
    if (!code->cubin.empty() || !code->ptx.empty()) out.emplace_back(name, *code);
  }
  return {out, {}};
}

ReleaseCode family_code(const std::string &file) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path real = fs::canonical(file, ec);
  const std::optional<Version> named = version_in_name(file);
  if (ec || !named) return {};
  return read_release_code(real.parent_path().string(), named->major).value.value_or(ReleaseCode{});
}

}  // namespace cudnn_compat
