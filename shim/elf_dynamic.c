#include "elf_dynamic.h"

#include <elf.h>
#include <fcntl.h>

#include "shim_text.h"
#include "sys.h"

// ld.so rewrites address entries of a writable dynamic section to run-time addresses; where it
// did not, the entry is still the link-time address, below the object's base.
static uintptr_t address(const struct link_map *map, uintptr_t value) {
  return map->l_addr && value < map->l_addr ? value + map->l_addr : value;
}

static uintptr_t dynamic_entry(const struct link_map *map, long tag, int *found) {
  *found = 0;
  for (const ElfW(Dyn) *d = map->l_ld; d && d->d_tag != DT_NULL; ++d)
    if (d->d_tag == tag) {
      *found = 1;
      return d->d_un.d_val;
    }
  return 0;
}

const char *dynamic_string(const struct link_map *map, long tag) {
  int has_strtab, has_tag;
  const uintptr_t strtab = dynamic_entry(map, DT_STRTAB, &has_strtab);
  const uintptr_t offset = dynamic_entry(map, tag, &has_tag);
  if (!has_strtab || !has_tag) return 0;
  return (const char *)address(map, strtab) + offset;
}

int needed_cudnn_major(const struct link_map *map) {
  int has_strtab;
  const char *strings = (const char *)address(map, dynamic_entry(map, DT_STRTAB, &has_strtab));
  for (const ElfW(Dyn) *d = map->l_ld; has_strtab && d && d->d_tag != DT_NULL; ++d) {
    struct cudnn_name c;
    if (d->d_tag == DT_NEEDED && parse_cudnn_name(strings + d->d_un.d_val, &c) && c.major >= 0)
      return c.major;
  }
  return -1;
}

static int read_at(long fd, void *to, long n, long offset) {
  return sys4(SYS_pread64, fd, to, n, offset) == n;
}

// A link-time address in the file: through the PT_LOAD segment that holds it.
static long file_offset(const ElfW(Phdr) * ph, int count, uintptr_t vaddr) {
  for (int i = 0; i < count; ++i)
    if (ph[i].p_type == PT_LOAD && vaddr >= ph[i].p_vaddr && vaddr - ph[i].p_vaddr < ph[i].p_filesz)
      return (long)(vaddr - ph[i].p_vaddr + ph[i].p_offset);
  return -1;
}

const char *file_soname(const char *path, char *out, long size) {
  static ElfW(Phdr) ph[32];
  static ElfW(Dyn) dyn[128];
  ElfW(Ehdr) eh;
  const long fd = sys4(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK, 0);
  if (fd < 0) return 0;
  const char *got = 0;
  long n = 0, strtab = -1, soname = -1;
  if (read_at(fd, &eh, sizeof eh, 0) && eh.e_ident[EI_MAG0] == ELFMAG0 &&
      eh.e_ident[EI_MAG1] == ELFMAG1 && eh.e_ident[EI_MAG2] == ELFMAG2 &&
      eh.e_ident[EI_MAG3] == ELFMAG3 && eh.e_ident[EI_CLASS] == ELFCLASS64 &&
      eh.e_phentsize == sizeof ph[0] && eh.e_phnum <= 32 &&
      read_at(fd, ph, (long)eh.e_phnum * (long)sizeof ph[0], (long)eh.e_phoff)) {
    for (int i = 0; i < eh.e_phnum && !n; ++i)
      if (ph[i].p_type == PT_DYNAMIC) {
        n = (long)(ph[i].p_filesz < sizeof dyn ? ph[i].p_filesz : sizeof dyn);
        if (!read_at(fd, dyn, n, (long)ph[i].p_offset)) n = 0;
      }
    for (long i = 0; i < n / (long)sizeof dyn[0] && dyn[i].d_tag != DT_NULL; ++i) {
      if (dyn[i].d_tag == DT_STRTAB) strtab = file_offset(ph, eh.e_phnum, dyn[i].d_un.d_ptr);
      if (dyn[i].d_tag == DT_SONAME) soname = (long)dyn[i].d_un.d_val;
    }
    const long k = strtab >= 0 && soname >= 0 && size > 1
                       ? sys4(SYS_pread64, fd, out, size - 1, strtab + soname)
                       : 0;
    if (k > 0) out[k] = 0, got = out;
  }
  sys(SYS_close, fd, 0, 0);
  return got;
}

static uint32_t gnu_hash(const char *s) {
  uint32_t h = 5381;
  for (; *s; ++s) h = h * 33 + (unsigned char)*s;
  return h;
}

void *dynamic_symbol(const struct link_map *map, const char *name) {
  int ok[3];
  const uint32_t *table = (const uint32_t *)address(map, dynamic_entry(map, DT_GNU_HASH, &ok[0]));
  const ElfW(Sym) *symbols = (const ElfW(Sym) *)address(map, dynamic_entry(map, DT_SYMTAB, &ok[1]));
  const char *strings = (const char *)address(map, dynamic_entry(map, DT_STRTAB, &ok[2]));
  // A table at address 0 (a library made by hand, or not relocated) is no table to read.
  if (!ok[0] || !ok[1] || !ok[2] || !table || !symbols || !strings) return 0;
  const uint32_t buckets = table[0], offset = table[1], words = table[2];
  if (!buckets) return 0;
  const uint32_t *bucket = table + 4 + words * (sizeof(ElfW(Addr)) / 4);
  const uint32_t *chain = bucket + buckets;
  const uint32_t h = gnu_hash(name);
  for (uint32_t i = bucket[h % buckets]; i >= offset; ++i) {
    const ElfW(Sym) *s = symbols + i;
    if ((chain[i - offset] | 1) == (h | 1) && s->st_shndx != SHN_UNDEF &&
        text_eq(strings + s->st_name, name))
      return (void *)(map->l_addr + s->st_value);
    if (chain[i - offset] & 1) break;
  }
  return 0;
}
