/* write-fatbin OUT ENTRY...: a fatbin container as nvcc lays it out (docs/gpu.md), for the
 * architectures nvcc no longer builds and for damaged ones. ENTRY: cubin:70, ptx:60, or
 * magic:HEX (the container's magic), cut:N (keep only the first N bytes of the file). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  static unsigned char buf[65536];
  size_t at = 16, keep = 0;
  uint32_t magic = 0xBA55ED50u;
  for (int i = 2; i < argc; ++i) {
    if (!strncmp(argv[i], "magic:", 6)) {
      magic = (uint32_t)strtoul(argv[i] + 6, 0, 16);
      continue;
    }
    if (!strncmp(argv[i], "cut:", 4)) {
      keep = strtoul(argv[i] + 4, 0, 10);
      continue;
    }
    const uint16_t kind = !strncmp(argv[i], "ptx:", 4) ? 1 : 2, flags = 0x0101;
    const uint32_t header = 64, arch = (uint32_t)atoi(strchr(argv[i], ':') + 1);
    const uint64_t payload = 32;
    memcpy(buf + at, &kind, 2), memcpy(buf + at + 2, &flags, 2), memcpy(buf + at + 4, &header, 4);
    memcpy(buf + at + 8, &payload, 8), memcpy(buf + at + 28, &arch, 4);
    at += header + payload;
  }
  const uint16_t version = 1, header = 16;
  const uint64_t size = at - 16;
  memcpy(buf, &magic, 4), memcpy(buf + 4, &version, 2), memcpy(buf + 6, &header, 2);
  memcpy(buf + 8, &size, 8);
  FILE *f = fopen(argv[1], "wb");
  if (!f || fwrite(buf, 1, keep && keep < at ? keep : at, f) == 0 || fclose(f)) return 1;
  return 0;
}
