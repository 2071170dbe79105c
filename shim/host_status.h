// What the kernel says about the host that decides how the engine may be started (run_engine.c),
// and what a usage record asks of /proc (record.c).
#pragma once

#pragma GCC visibility push(hidden)

// A seccomp filter is installed in this thread: it may kill the host for making a process or a
// socket (systemd's default action, some container profiles), and what it allows cannot be read.
int seccomp_filtered(void);
// The same asked of /proc alone, never with prctl: where /proc says nothing (not mounted, an
// outside tester's host), a filter is assumed. For what may be left undone (a usage record): a
// filter may kill the host for prctl.
int seccomp_maybe_filtered(void);
// An orphan of the host's would be reaped: the host does not adopt orphans itself (a subreaper,
// PID 1), and PID 1 of its namespace can learn of its children's ends.
int orphans_reaped(void);

// With only the calls the dynamic loader itself makes (openat, read, close): the nodename uname
// would give (out: 65 bytes), 1 when /proc says it; and the absolute path of the file mapped at
// address `at` (the program's headers: its path as /proc/self/exe gives it) in out, or 0.
int proc_host_name(char out[65]);
const char *proc_mapped_path(unsigned long at, char *out, long size);

#pragma GCC visibility pop
