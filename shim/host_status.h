// What the kernel says about the host that decides how the engine may be started (run_engine.c).
#pragma once

#pragma GCC visibility push(hidden)

// A seccomp filter is installed in this thread: it may kill the host for making a process or a
// socket (systemd's default action, some container profiles), and what it allows cannot be read.
int seccomp_filtered(void);
// An orphan of the host's would be reaped: the host does not adopt orphans itself (a subreaper,
// PID 1), and PID 1 of its namespace can learn of its children's ends.
int orphans_reaped(void);

#pragma GCC visibility pop
