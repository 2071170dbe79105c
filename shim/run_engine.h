// Running the engine from inside a host process without the host ever noticing.
#pragma once

#pragma GCC visibility push(hidden)

enum engine_result {
  ENGINE_ANSWERED,  // *answer holds a complete answer (it ended with its "end" line)
  ENGINE_MISSING,   // it could not be executed (execve's errno in *error)
  ENGINE_SILENT,    // it ended without a complete answer (crashed, killed, said nothing)
  ENGINE_LATE,      // the deadline passed: it and everything it started were killed
  ENGINE_BUSY,      // a helper of an earlier decision has not ended yet
  ENGINE_NOT_RUN,   // the kernel refused a pipe or a process (errno in *error)
  ENGINE_FILTERED,  // a seccomp filter is installed: no process was started
};

// After the deadline the keeper is given this long to end the engine and its probes.
enum { ENGINE_GRACE_MS = 1000 };

// The probe of the loader's own file, which is most of a first decision's time: started beside
// the engine instead of by it, so that the engine's own start and its reading of the map overlap
// the library's load. Its output reaches the engine on CUDNN_COMPAT_PROBE_FD (shared/protocol.h).
struct engine_probe {
  char *const *argv, *const *envp;
};

// Whether an engine may be started now; else 0 and *why: ENGINE_BUSY (the last decision's keeper
// has not ended by deadline_ms) or ENGINE_FILTERED. Asked first, so that nothing is prepared for
// an engine that will not run (a seccomp-filtered host reaches here in every process).
int engine_ready(long deadline_ms, enum engine_result *why);

// After engine_ready: runs argv[0] with envp (and probe, when not 0) and returns what it printed
// on stdout by deadline_ms (monotonic). The answer stays valid until the next call.
enum engine_result run_engine(char *const *argv, char *const *envp,
                              const struct engine_probe *probe, long deadline_ms,
                              const char **answer, int *error);

// Whether this process's hard stack limit is below what the engine needs (ulimit -s): the reason
// an engine that ended without an answer most likely did.
int engine_stack_short(void);

#pragma GCC visibility pop
