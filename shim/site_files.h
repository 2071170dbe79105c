// The trust rule and the stamp of the map's derived tables (docs/contract.md), in the one C the
// shim runs and the engine links: whether a table beside the map may be believed instead of the
// map. Raw system calls only (the shim carries no libc). The Lua and Tcl hooks implement the same
// rule (share/cudnn-compat/{lmod,envmodules}/site_tables.*); tests/conformance holds all four
// readers to the same verdicts.
#pragma once

#include <sys/stat.h>

#include "site_contract.h"

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(hidden)

// Why a table is not believed; SITE_BELIEVED when it is. The order is the order of the checks.
enum site_verdict {
  SITE_BELIEVED,
  SITE_MAP_NOT_FILE,     // the map is missing, a symbolic link, or not a regular file
  SITE_NO_TABLE,         // no table (or it cannot be opened)
  SITE_TABLE_NOT_FILE,   // a symbolic link, a FIFO or a device at the table's name
  SITE_OTHER_FORMAT,     // written by another version of cudnn-compat (another format)
  SITE_MAP_UNTRUSTED,    // others than root, the reader and the trusted group may write the map
  SITE_DIR_UNTRUSTED,    // ... its directory
  SITE_TABLE_UNTRUSTED,  // ... the table, or it is not the map's owner's (nor the group's)
  SITE_STALE,            // made from another map: the map changed since (or it is another map)
  SITE_CUT_SHORT,        // its last line is not the end line: cut short
  SITE_VERDICTS
};
// A word for each verdict, as the readers report it ("believed", "stale", ...).
const char *site_verdict_name(enum site_verdict v);

// The map's stamp as a table's first line carries it after the format.
struct site_stamp {
  unsigned long ino, size, mtime_s, mtime_ns, crc;
  long gid;  // the trusted group's id, or -1
};

// What the checks saw, for the reasons the engine gives.
struct site_seen {
  struct stat map, dir, table;
  struct site_stamp stamp;
  long reader;  // the effective uid site_judge_table held them to; -1 before it asked
};

// zlib's CRC-32 of n bytes, continuing from crc (0 to start).
unsigned long site_crc32(unsigned long crc, const char *data, long n);

// Whether an object the readers believe may be written by others than root, reader and the
// trusted group gid (-1: none): 0 when not, else SITE_*_UNTRUSTED's reason as a small number
// (1 a foreign owner, 2 writable by others, 3 writable by a group that is not the trusted one).
int site_object_problem(const struct stat *st, unsigned long reader, long gid);

// Opens the table at table_path beside the map at map_path (scratch: at least as large as
// map_path, for its directory), without following a link or blocking on a FIFO: the open file
// descriptor, or -1 with *verdict set. Fills seen->map, dir and table.
long site_open_table(const char *map_path, const char *table_path, char *scratch, long scratch_size,
                     struct site_seen *seen, enum site_verdict *verdict);
// The verdict on a table's whole text (size bytes) of the given format, opened by site_open_table:
// its stamp, the trust rule under the stamp's trusted group, the map's identity (or, when that
// differs, its content's CRC-32) and the end line. Reads the map only when its identity differs.
enum site_verdict site_judge_table(const char *text, long size, const char *format,
                                   const char *map_path, struct site_seen *seen);
// The first line of text after its stamp; 0 when the stamp is not one of this format.
const char *site_parse_stamp(const char *text, const char *format, struct site_stamp *out);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif
