#include "lock.h"

#include <linux/futex.h>
#include <stdatomic.h>

#include "environment.h"
#include "sys.h"

// While a holder has published no deadline: CUDNN_COMPAT_TIMEOUT's default and the keeper's
// second, from when the waiter started waiting.
enum { kDefaultHold = 11 * 1000, kNap = 200 };

// The thread id holding it, 0 when free. A futex word is 32 bits; Linux thread ids fit.
static _Atomic int owner;
static atomic_int waiters;
// The holder's deadline; 0 until it publishes one (cleared before the lock is given back).
static _Atomic long holder_until;

enum lock_result lock(void) {
  const int me = (int)sys(SYS_gettid, 0, 0, 0);
  long fallback = 0;  // read from the clock only when there is a wait
  for (;;) {
    int holder = 0;
    if (atomic_compare_exchange_strong(&owner, &holder, me)) break;
    // Only this thread sets owner to its own id: seeing it means a handler interrupted this
    // thread while it held the lock, and waiting would wait for ourselves forever.
    if (holder == me) return LOCK_REENTERED;
    // A holder that is no thread of this process is a thread that did not survive fork().
    if (sys(SYS_tgkill, sys(SYS_getpid, 0, 0, 0), holder, 0) != 0 &&
        atomic_compare_exchange_strong(&owner, &holder, me))
      break;
    const long now = now_ms(), until = atomic_load(&holder_until);
    if (!fallback) fallback = now + kDefaultHold;
    const long left = (until ? until : fallback) - now;
    if (left <= 0) return LOCK_TIMED_OUT;
    // Sleep until the holder unlocks; wake now and then to look for a holder lost in a fork.
    const long ms = left < kNap ? left : kNap;
    const struct { long sec, nsec; } nap = {0, ms * 1000 * 1000};
    atomic_fetch_add(&waiters, 1);
    sys4(SYS_futex, &owner, FUTEX_WAIT_PRIVATE, holder, &nap);
    atomic_fetch_sub(&waiters, 1);
  }
  return LOCK_TAKEN;
}

void lock_deadline(long until_ms) {
  atomic_store(&holder_until, until_ms);
}

void unlock(void) {
  atomic_store(&holder_until, 0);
  atomic_store(&owner, 0);
  if (atomic_load(&waiters)) sys4(SYS_futex, &owner, FUTEX_WAKE_PRIVATE, 1, 0);
}
