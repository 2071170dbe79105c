// The section table of a 64-bit ELF file, read a header at a time (a library may be GiBs).
#include "elf_file.h"

#include <elf.h>

#include <algorithm>

namespace cudnn_compat {

ElfSections elf_sections(const Fd &fd, std::uint64_t file_size) {
  ElfSections out;
  Elf64_Ehdr eh;
  if (!fd.read(0, &eh, sizeof eh) || std::memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 ||
      eh.e_ident[EI_CLASS] != ELFCLASS64)
    return {{}, "is not a 64-bit ELF file"};
  if (eh.e_shoff == 0 || eh.e_shentsize < sizeof(Elf64_Shdr) || eh.e_shstrndx >= eh.e_shnum)
    return out;
  const auto section = [&](unsigned i, Elf64_Shdr &sh) {
    return fd.read(eh.e_shoff + std::uint64_t(i) * eh.e_shentsize, &sh, sizeof sh);
  };
  Elf64_Shdr names;
  if (!section(eh.e_shstrndx, names)) return {{}, "has a cut-short section table"};
  for (unsigned i = 0; i < eh.e_shnum; ++i) {
    Elf64_Shdr sh;
    if (!section(i, sh)) return {{}, "has a cut-short section table"};
    if (sh.sh_type == SHT_NOBITS || sh.sh_name >= names.sh_size) continue;
    char name[64] = {};
    if (!fd.read(names.sh_offset + sh.sh_name, name,
                 std::min<std::uint64_t>(sizeof name - 1, names.sh_size - sh.sh_name)))
      continue;
    out.sections.push_back({name, sh.sh_offset, sh.sh_size,
                            sh.sh_offset <= file_size && sh.sh_size <= file_size - sh.sh_offset});
  }
  return out;
}

}  // namespace cudnn_compat
