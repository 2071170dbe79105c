// One decision at a time in a process. Waiters sleep in the kernel (a thread waiting for another's
// decision costs no CPU); a holder that did not survive fork() is noticed and passed over.
#pragma once

#pragma GCC visibility push(hidden)

void lock(void);
void unlock(void);

#pragma GCC visibility pop
