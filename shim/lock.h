// One decision at a time in a process. Waiters sleep in the kernel (a thread waiting for another's
// decision costs no CPU); a holder that did not survive fork() is noticed and passed over.
#pragma once

#pragma GCC visibility push(hidden)

enum lock_result {
  LOCK_TAKEN,      // this thread holds it now: unlock() when done
  LOCK_REENTERED,  // this thread holds it already: a signal handler of the host that loads a
                   // library in the middle of a decision; the shim's state is not to be touched
  LOCK_TIMED_OUT,  // its holder is past its deadline (stopped by something of the host's)
};

// Takes the lock. A thread that waits for another's decision waits no longer than that decision
// may last: until the deadline its holder published with lock_deadline, or a default one.
enum lock_result lock(void);
// The holder's deadline (monotonic ms) for what it does under the lock.
void lock_deadline(long until_ms);
void unlock(void);

#pragma GCC visibility pop
