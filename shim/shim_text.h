// The shim's own small string, path and name routines: it carries no libc (see shim.c).
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#pragma GCC visibility push(hidden)

long text_len(const char *s);
int text_eq(const char *a, const char *b);
// The rest of s after prefix, or 0 when s does not start with it.
const char *after_prefix(const char *s, const char *prefix);
// Copies src into dst of size; 0 when it does not fit (dst is then "").
int copy_text(char *dst, long size, const char *src);
// Appends src to dst (size bytes) at offset at, truncating; returns the new length.
long append_text(char *dst, long size, long at, const char *src);
const char *base_name(const char *path);
int text_has(const char *s, char c);  // whether c is one of s's characters (not its NUL)
// The end of the line at p (its '\n' or the text's end), and the start of the next one.
const char *line_end(const char *p);
const char *next_line(const char *p);
// The line at p made a string in place, in a text of one's own: its end ('\n' or the text's NUL)
// becomes a NUL, the character there kept in *was; line_mend puts it back and returns the next
// line's start. No copy: a buffer of its own would be a page fault in every process.
char *line_cut(char *p, char *was);
char *line_mend(char *end, char was);
// The decimal number at *p into *out, *p moved past it; 0 when *p holds no digit.
int read_decimal(const char **p, unsigned long *out);
// n in decimal into out (at least 21 bytes); returns out.
char *format_decimal(unsigned long n, char *out);
// dir + "/" + base into dst; 0 when it does not fit.
int join_path(char *dst, long size, const char *dir, const char *base);
int path_is(const char *path, const char *dir, const char *base);
// Puts the directory of path into dir ("" for a bare name) and returns its base name, or 0.
const char *split_path(const char *path, char *dir, long size);
// An absolute path with its ".", ".." and repeated slashes taken out by its text alone, into out
// (size bytes); 0 for a relative path or one that does not fit. The loader names a wheel's file by
// its requester's RUNPATH ($ORIGIN/../../nvidia/cudnn/lib), which the rules above read by shape.
const char *lexically_normal(const char *path, char *out, long size);
// In /proc/self/maps text, the file mapped at address (its line is ended in place), or 0.
const char *mapping_path(char *maps, uintptr_t address);

// The directory a cuDNN wheel installs into: <...>/site-packages/nvidia/cudnn/lib (or Debian's
// dist-packages), a trailing '/' allowed. The one rule of this shape: the engine asks it too.
int is_wheel_cudnn_dir(const char *dir, long length);

// Where a file may belong to a Python distribution that pins cuDNN, by its path alone: below a
// site-packages or dist-packages (a wheel's), or in a lib/ directory, which is a conda prefix's
// when the directory beside it holds conda-meta/ (the caller looks). The shim and the engine ask
// it alike: which requesters go to the engine, and which files' pins the engine reads.
enum python_path { PYTHON_NONE, PYTHON_WHEEL, PYTHON_LIB_DIR };
// What follows the last site-packages/ or dist-packages/ component of file, or 0.
const char *below_site_packages(const char *file);
enum python_path python_path_kind(const char *file);

// A conda prefix's libraries are in its lib/, its conda-meta/ beside it: for a directory named lib
// (a trailing '/' allowed), "<its parent>/conda-meta" in out (size bytes), else 0. The prefix is
// conda's when that is a directory; the caller looks. The one rule of this shape: the shim's
// requester and report, and the engine's sources and pins, all ask it.
const char *conda_meta_beside(const char *dir, char *out, long size);

// A directory of the machine's own installs, by its path: under /usr/ or /lib (/lib64 too).
// A cuDNN there that no map lists is the system's. The engine asks it too.
int is_system_dir(const char *dir);

// cudnnGetVersion()'s number for a release, back to its parts (0 when it is none: 1000-8999 up to
// cuDNN 8, 90000-999999 from 9), and to "x.y.z" (out: 32 bytes; returns out; a number that is
// none is written as it is): major*1000+minor*100+patch up to 8.x, major*10000+minor*100+patch
// from 9 (FACTS.md section 1). The one place of this encoding: the engine's too.
unsigned long cudnn_number_of(int major, int minor, int patch);
int cudnn_number_parts(unsigned long number, int part[3]);
char *cudnn_number_text(unsigned long number, char *out);

// A cuDNN library file name as the loader is asked for it (FACTS.md sections 1-2). The one
// grammar of these names: the engine's parse_library_name reads Linux names through it.
enum { CUDNN_NAME_PARTS = 4 };  // major.minor.patch.build, as release numbers go
struct cudnn_name {
  const char *base;      // the name itself
  int sub;               // a sub-library: libcudnn_ops.so.9, libcudnn_cnn_infer.so.8, ...
  const char *sub_name;  // its name part ("cnn_infer", sub_len bytes), or 0
  int sub_len;
  int major;         // -1 when the name carries no version (libcudnn.so)
  int full_version;  // carries more than the major (libcudnn_graph.so.9.19.0)
  int parts;         // how many version numbers the name carries, 0 to CUDNN_NAME_PARTS
  int version[CUDNN_NAME_PARTS];  // those numbers (up to 6 digits each), -1 past parts
  int padded;  // a number is written with a leading zero (libcudnn_graph.so.09): base is not the
               // name the loader's cache answers it with (canonical_cudnn_name)
};
// 1 for libcudnn.so[.N[.N[.N[.N]]]] and libcudnn_<words>.so[.N...], where words are a lower-case
// letter then letters or digits, joined by single '_'; 0 for every other name.
int parse_cudnn_name(const char *base, struct cudnn_name *out);
// The name c reads as, its numbers written as numbers ("libcudnn_graph.so.09" is
// "libcudnn_graph.so.9", the file ld.so.cache answers it with); 0 when out is too small.
const char *canonical_cudnn_name(const struct cudnn_name *c, char *out, long size);

#pragma GCC visibility pop

#ifdef __cplusplus
}
#endif
