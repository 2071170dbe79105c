/* The need a process's environment asks for - the cuDNN version and the CUDA major - read alike
 * by the shim (C, no libc), the engine and the CLI (C++), so that no process is told one need by
 * its shim and another by doctor.
 *
 * CUDNN_COMPAT_REQUIRE and CUDNN_COMPAT_CUDA are the user's word and win. An application's
 * modulefile sets them too (pushenv), and there Lmod restores, on unload, the value pushed last
 * whichever module is unloaded: after `module load a b; module unload a` the variable holds a's
 * need while b is the one loaded. The module system's own record, CUDNN_COMPAT_NEEDS (one
 * "<module>=<version>[,cuda=N]" per loaded application, prepended: the one loaded last first,
 * each removed with its module), is right in every order. So a variable whose value is the top of
 * Lmod's pushenv stack for it (__LMOD_STACK_<NAME>: base64 entries, the top first) was set by a
 * module, not by the user, and the first entry of CUDNN_COMPAT_NEEDS says the need in its place;
 * so does it where the variable is unset. A user's export after the module's pushenv differs from
 * the stack's top and still wins (one that equals it cannot be told from the module's). Environment
 * Modules restores pushenv values in the right order, but a variable one application pushed stays
 * while another that pushes none is loaded after it (pytorch's CUDNN_COMPAT_CUDA=12 beside the
 * tensorflow loaded last): its record of pushed values (__MODULES_PUSHENV_<NAME>: "module&value"
 * entries, the top first) counts alike. */
#pragma once

struct cudnn_compat_text {
  const char *s; /* none: CUDNN_COMPAT_NONE */
  unsigned long n;
};
#ifdef __cplusplus
#define CUDNN_COMPAT_NONE nullptr
#else
#define CUDNN_COMPAT_NONE 0
#endif

/* What each input variable holds (0: unset). */
struct cudnn_compat_need_env {
  const char *require, *cuda, *needs;
  const char *require_stack, *cuda_stack;   /* __LMOD_STACK_CUDNN_COMPAT_REQUIRE, _CUDA */
  const char *require_pushed, *cuda_pushed; /* __MODULES_PUSHENV_CUDNN_COMPAT_REQUIRE, _CUDA */
};

enum cudnn_compat_need_from {
  CUDNN_COMPAT_NEED_NONE,
  CUDNN_COMPAT_NEED_VARIABLE, /* CUDNN_COMPAT_REQUIRE / CUDNN_COMPAT_CUDA */
  CUDNN_COMPAT_NEED_MODULE,   /* the first entry of CUDNN_COMPAT_NEEDS */
};

struct cudnn_compat_asked_need {
  struct cudnn_compat_text require, cuda;
  enum cudnn_compat_need_from require_from, cuda_from;
  struct cudnn_compat_text module; /* the entry's module, where either came from one */
};

static inline struct cudnn_compat_text cudnn_compat_text_of(const char *s, unsigned long n) {
  struct cudnn_compat_text t;
  t.s = s, t.n = n;
  return t;
}

static inline unsigned long cudnn_compat_text_len(const char *s) {
  unsigned long n = 0;
  while (s && s[n]) ++n;
  return n;
}

static inline int cudnn_compat_base64_digit(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  return c == '+' ? 62 : c == '/' ? 63 : -1;
}

/* Whether the first entry of a base64 stack (entries split by ':', '=' padding) decodes to value
 * exactly. */
static inline int cudnn_compat_stack_top_is(const char *stack, const char *value) {
  unsigned long bits = 0, at = 0;
  int held = 0;
  for (; stack && *stack && *stack != ':' && *stack != '='; ++stack) {
    const int d = cudnn_compat_base64_digit(*stack);
    if (d < 0) return 0;
    bits = (bits << 6 | (unsigned long)d) & 0xffff;
    if ((held += 6) >= 8) {
      held -= 8;
      if (!value[at] || value[at] != (char)((bits >> held) & 0xff)) return 0;
      ++at;
    }
  }
  return stack && value[at] == 0;
}

/* Whether the first entry of Environment Modules' record of pushed values ("module&value", split
 * by ':') holds value exactly. */
static inline int cudnn_compat_pushed_top_is(const char *pushed, const char *value) {
  const char *p = pushed;
  while (p && *p && *p != ':' && *p != '&') ++p;
  if (!p || *p != '&') return 0;
  for (++p; *p && *p != ':'; ++p, ++value)
    if (*value != *p) return 0;
  return *value == 0;
}

/* Whether a module system's pushenv set the variable's value. */
static inline int cudnn_compat_pushed(const char *value, const char *lmod_stack,
                                      const char *em_pushed) {
  return cudnn_compat_stack_top_is(lmod_stack, value) ||
         cudnn_compat_pushed_top_is(em_pushed, value);
}

/* The first entry of CUDNN_COMPAT_NEEDS that names a module: its module, version and CUDA. */
static inline int cudnn_compat_first_need(const char *needs, struct cudnn_compat_text *module,
                                          struct cudnn_compat_text *version,
                                          struct cudnn_compat_text *cuda) {
  for (const char *e = needs; e && *e;) {
    unsigned long n = 0, eq = 0;
    while (e[n] && e[n] != ':') ++n;
    while (eq < n && e[eq] != '=') ++eq;
    if (eq > 0 && eq < n) {
      static const char kCuda[] = ",cuda=";
      unsigned long end = eq + 1, k = 0;
      while (end < n && e[end] != ',') ++end;
      *module = cudnn_compat_text_of(e, eq);
      *version = cudnn_compat_text_of(e + eq + 1, end - eq - 1);
      while (k + 1 < sizeof kCuda && end + k < n && e[end + k] == kCuda[k]) ++k;
      *cuda = k + 1 == sizeof kCuda ? cudnn_compat_text_of(e + end + k, n - end - k)
                                    : cudnn_compat_text_of(CUDNN_COMPAT_NONE, 0);
      return 1;
    }
    e += n + (e[n] == ':');
  }
  return 0;
}

static inline void cudnn_compat_read_need(const struct cudnn_compat_need_env *in,
                                          struct cudnn_compat_asked_need *out) {
  struct cudnn_compat_text module = cudnn_compat_text_of(CUDNN_COMPAT_NONE, 0), version = module,
                           cuda = module;
  const int entry = cudnn_compat_first_need(in->needs, &module, &version, &cuda);
  const int require_user =
      in->require &&
      !(entry && cudnn_compat_pushed(in->require, in->require_stack, in->require_pushed));
  const int cuda_user =
      in->cuda && !(entry && cudnn_compat_pushed(in->cuda, in->cuda_stack, in->cuda_pushed));
  out->require = out->cuda = out->module = cudnn_compat_text_of(CUDNN_COMPAT_NONE, 0);
  out->require_from = out->cuda_from = CUDNN_COMPAT_NEED_NONE;
  if (require_user) {
    out->require = cudnn_compat_text_of(in->require, cudnn_compat_text_len(in->require));
    out->require_from = CUDNN_COMPAT_NEED_VARIABLE;
  } else if (entry) {
    out->require = version, out->require_from = CUDNN_COMPAT_NEED_MODULE, out->module = module;
  }
  if (cuda_user) {
    out->cuda = cudnn_compat_text_of(in->cuda, cudnn_compat_text_len(in->cuda));
    out->cuda_from = CUDNN_COMPAT_NEED_VARIABLE;
  } else if (entry && cuda.s) {
    out->cuda = cuda, out->cuda_from = CUDNN_COMPAT_NEED_MODULE, out->module = module;
  }
}
