// The dynamic section of an ELF file, read in place: the ELF header, the program headers, the
// dynamic segment and the few strings it names. A 1 GiB library (libtorch_cuda.so) costs what a
// small one does: a handful of preads, never the whole file.
#include "elf_file.h"
#include "system.h"

#include <elf.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace cudnn_compat {

Parsed<ElfDynamic> read_elf_dynamic(const std::string &file) {
  const Fd fd(file);
  Elf64_Ehdr eh;
  if (!fd.ok() || !fd.read(0, &eh, sizeof eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0)
    return Parsed<ElfDynamic>::fail(file + " is not an ELF file (or cannot be read)");
  if (eh.e_ident[EI_CLASS] != ELFCLASS64)
    return Parsed<ElfDynamic>::fail(file + " is not a 64-bit ELF file");
  std::vector<Elf64_Phdr> loads;
  std::optional<Elf64_Phdr> dynamic;
  for (unsigned i = 0; i < eh.e_phnum && eh.e_phentsize >= sizeof(Elf64_Phdr); ++i) {
    Elf64_Phdr ph;
    if (!fd.read(eh.e_phoff + std::uint64_t(i) * eh.e_phentsize, &ph, sizeof ph)) break;
    if (ph.p_type == PT_LOAD) loads.push_back(ph);
    if (ph.p_type == PT_DYNAMIC) dynamic = ph;
  }
  ElfDynamic out;
  if (!dynamic) return {out, {}};  // static: needs nothing
  // 64 Ki entries is far beyond any real dynamic section; a corrupt size must not allocate GiBs.
  const std::size_t count = std::min<std::uint64_t>(dynamic->p_filesz / sizeof(Elf64_Dyn), 65536);
  std::vector<Elf64_Dyn> dyn(count);
  if (!fd.read(dynamic->p_offset, dyn.data(), count * sizeof(Elf64_Dyn)))
    return Parsed<ElfDynamic>::fail(file + " has a truncated dynamic section");
  std::uint64_t strtab = 0;
  for (const Elf64_Dyn &d : dyn) {
    if (d.d_tag == DT_NULL) break;
    if (d.d_tag == DT_STRTAB) strtab = d.d_un.d_ptr;
  }
  // DT_STRTAB holds an address; the segments map it back to a file offset.
  std::optional<std::uint64_t> base;
  for (const Elf64_Phdr &l : loads)
    if (strtab >= l.p_vaddr && strtab < l.p_vaddr + l.p_filesz)
      base = strtab - l.p_vaddr + l.p_offset;
  if (!base) return Parsed<ElfDynamic>::fail(file + " has no readable string table");
  for (const Elf64_Dyn &d : dyn) {
    if (d.d_tag == DT_NULL) break;
    if (d.d_tag != DT_NEEDED && d.d_tag != DT_RPATH && d.d_tag != DT_RUNPATH &&
        d.d_tag != DT_SONAME)
      continue;
    const std::optional<std::string> value = fd.string_at(*base + d.d_un.d_val, 65536);
    if (!value) continue;
    if (d.d_tag == DT_NEEDED) out.needed.push_back(*value);
    if (d.d_tag == DT_RPATH) out.rpath = *value;
    if (d.d_tag == DT_RUNPATH) out.runpath = *value;
    if (d.d_tag == DT_SONAME) out.soname = *value;
  }
  return {out, {}};
}

}  // namespace cudnn_compat
