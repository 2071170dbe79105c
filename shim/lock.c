#include "lock.h"

#include <linux/futex.h>
#include <stdatomic.h>

#include "sys.h"

// The thread id holding it, 0 when free. A futex word is 32 bits; Linux thread ids fit.
static _Atomic int owner;
static atomic_int waiters;

void lock(void) {
  const int me = (int)sys(SYS_gettid, 0, 0, 0);
  for (;;) {
    int holder = 0;
    if (atomic_compare_exchange_strong(&owner, &holder, me)) return;
    // A holder that is no thread of this process is a thread that did not survive fork().
    if (sys(SYS_tgkill, sys(SYS_getpid, 0, 0, 0), holder, 0) != 0 &&
        atomic_compare_exchange_strong(&owner, &holder, me))
      return;
    // Sleep until the holder unlocks; wake now and then to look for a holder lost in a fork.
    const struct { long sec, nsec; } nap = {0, 200 * 1000 * 1000};
    atomic_fetch_add(&waiters, 1);
    sys4(SYS_futex, &owner, FUTEX_WAIT_PRIVATE, holder, &nap);
    atomic_fetch_sub(&waiters, 1);
  }
}

void unlock(void) {
  atomic_store(&owner, 0);
  if (atomic_load(&waiters)) sys4(SYS_futex, &owner, FUTEX_WAKE_PRIVATE, 1, 0);
}
