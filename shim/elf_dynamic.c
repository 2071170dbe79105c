#include "elf_dynamic.h"

#include <elf.h>

#include "shim_text.h"

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
  if (!ok[0] || !ok[1] || !ok[2]) return 0;
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
