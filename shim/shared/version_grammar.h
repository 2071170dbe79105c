/* The one grammar of a version as people write it - CUDNN_COMPAT_REQUIRE and CUDNN_COMPAT_CUDA,
 * the map's versions, --require: read by the shim's fast path (C, no libc) and by the engine's
 * parse_dotted and parse_cuda (C++), so that no text is a version to one and not to the other,
 * or a different version. The limits are part of the grammar: a number past them is no version
 * anywhere (5.0.100000 is refused, not read as 5.1 or wrapped). */
#pragma once

enum {
  CUDNN_COMPAT_VERSION_PARTS = 4,         /* major.minor.patch.build */
  CUDNN_COMPAT_VERSION_DIGITS = 5,        /* each part 1 to 5 digits, leading zeros included */
  CUDNN_COMPAT_VERSION_MAX = 99999,       /* so the largest part */
  CUDNN_COMPAT_CUDA_MAJOR_DIGITS = 3,     /* a CUDA version may be a bare major: 12 */
  CUDNN_COMPAT_REQUIRED_MAJOR_DIGITS = 3, /* so may a required cuDNN: 9 (any 9.x the rule takes) */
};

struct cudnn_compat_version {
  int parts;                             /* how many were written */
  long part[CUDNN_COMPAT_VERSION_PARTS]; /* 0 past parts */
};

static inline int cudnn_compat_is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Trims s[0..*n) of spaces; returns the new start. */
static inline const char *cudnn_compat_trim(const char *s, unsigned long *n) {
  while (*n && cudnn_compat_is_space(s[0])) ++s, --*n;
  while (*n && cudnn_compat_is_space(s[*n - 1])) --*n;
  return s;
}

/* Digits and dots: 1 to 4 parts of 1 to 5 digits. */
static inline int cudnn_compat_parse_parts(const char *s, unsigned long n,
                                           struct cudnn_compat_version *out) {
  int parts = 0, digits = 0;
  for (int i = 0; i < CUDNN_COMPAT_VERSION_PARTS; ++i) out->part[i] = 0;
  out->parts = 0;
  if (!n) return 0;
  for (unsigned long i = 0; i < n; ++i) {
    const char c = s[i];
    if (c == '.') {
      if (!digits || ++parts == CUDNN_COMPAT_VERSION_PARTS) return 0;
      digits = 0;
    } else if (c >= '0' && c <= '9' && digits < CUDNN_COMPAT_VERSION_DIGITS) {
      out->part[parts] = out->part[parts] * 10 + (c - '0');
      ++digits;
    } else {
      return 0;
    }
  }
  if (!digits) return 0;
  out->parts = parts + 1;
  return 1;
}

/* Spaces, an optional 'v' or 'V', major.minor[.patch[.build]], spaces: 5.1, 5.1.10, v8.9.7,
 * 8.9.2.26. */
static inline int cudnn_compat_parse_version(const char *s, unsigned long n,
                                             struct cudnn_compat_version *out) {
  s = cudnn_compat_trim(s, &n);
  if (n && (s[0] == 'v' || s[0] == 'V')) ++s, --n;
  return cudnn_compat_parse_parts(s, n, out) && out->parts >= 2;
}

/* A bare major of at most `digits` digits; *out has one part. */
static inline int cudnn_compat_parse_major(const char *s, unsigned long n, unsigned long digits,
                                           struct cudnn_compat_version *out) {
  return n && n <= digits && cudnn_compat_parse_parts(s, n, out) && out->parts == 1;
}

/* A required cuDNN (CUDNN_COMPAT_REQUIRE, --require, [[require]], the hooks' needs): after an
 * optional 'v', a bare major (9, v9) or a version as above (v9.1). */
static inline int cudnn_compat_parse_required(const char *s, unsigned long n,
                                              struct cudnn_compat_version *out) {
  const char *t = cudnn_compat_trim(s, &n), *major = t;
  unsigned long m = n;
  if (m && (t[0] == 'v' || t[0] == 'V')) ++major, --m;
  return cudnn_compat_parse_major(major, m, CUDNN_COMPAT_REQUIRED_MAJOR_DIGITS, out) ||
         cudnn_compat_parse_version(t, n, out);
}

/* A CUDA version: a bare major of 1 to 3 digits (12), or a version as above (12.2). CUDA's
 * releases start at 1: a major of 0 is a typo or a placeholder, never a need. */
static inline int cudnn_compat_parse_cuda(const char *s, unsigned long n,
                                          struct cudnn_compat_version *out) {
  const char *t = cudnn_compat_trim(s, &n);
  return (cudnn_compat_parse_major(t, n, CUDNN_COMPAT_CUDA_MAJOR_DIGITS, out) ||
          cudnn_compat_parse_version(t, n, out)) &&
         out->part[0] > 0;
}
