// The kernel, without libc: the shim carries no libc (see shim.c), so it makes its own system
// calls. Every wrapper returns the raw result: a negative errno on failure.
#pragma once

#include <linux/errno.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <time.h>

#pragma GCC visibility push(hidden)

static inline long sys6(long n, long a, long b, long c, long d, long e, long f) {
  long ret;
  register long r10 __asm__("r10") = d;
  register long r8 __asm__("r8") = e;
  register long r9 __asm__("r9") = f;
  __asm__ volatile("syscall"
                   : "=a"(ret)
                   : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
                   : "rcx", "r11", "memory");
  return ret;
}
#define sys(n, a, b, c) sys6(n, (long)(a), (long)(b), (long)(c), 0, 0, 0)
#define sys4(n, a, b, c, d) sys6(n, (long)(a), (long)(b), (long)(c), (long)(d), 0, 0)

// A system call interrupted by a signal of the host is made again: the host's interval timers
// and profilers must not change what the shim decides.
#define sys_retry(n, a, b, c) \
  ({                          \
    long r_;                  \
    do r_ = sys(n, a, b, c);  \
    while (r_ == -EINTR);     \
    r_;                       \
  })

// A kernel time (a file's mtime or ctime) in nanoseconds: the stamps the shim compares.
static inline unsigned long timespec_ns(const struct timespec *t) {
  return (unsigned long)t->tv_sec * 1000000000ul + (unsigned long)t->tv_nsec;
}

// Sleeps ms milliseconds (less if a signal of the host interrupts it).
static inline void nap_ms(long ms) {
  const struct { long sec, nsec; } nap = {ms / 1000, ms % 1000 * 1000000};
  sys(SYS_nanosleep, &nap, 0, 0);
}

#pragma GCC visibility pop
