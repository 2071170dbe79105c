// The subject of the load benchmarks (shim_load_bench, memo_bench): a process of its own that
// dlopens one name, as a job's process would, and says what that cost.
#pragma once

#include <string>
#include <vector>

// Handles the child's command lines, run by the benchmark itself; -1 when argv is none of them:
//   --child GB NAME   touches GB gigabytes (page tables a fork would copy), then dlopens NAME
//   --gated READY GATE NAME   writes a byte to READY, waits until GATE reads end-of-file (every
//                     sibling released at once), then dlopens NAME
//   --spawn PATH ARG...   starts PATH (posix_spawn) and waits for it (what it prints comes first)
// Each prints one line: the microseconds that took, the version the library reports (0 when
// loaded by path, or for --spawn), and the minor page faults and the CPU time (user and system,
// microseconds) of every process it started and reaped (RUSAGE_CHILDREN: 0 when it started none).
int load_child(int argc, char **argv);

std::string self_path();
// The version the library in dir reports (x.y.z), loaded by a child without the shim.
std::string real_version(const std::string &self, const std::string &dir);
// How many processes one load of libcudnn.so.9 starts: clone, fork and vfork calls that make no
// thread, and execve calls after the child's own, under strace -f.
int processes_started(const std::string &self, const std::vector<std::string> &env);

// One child's line, as --child, --gated and --spawn print it.
struct Sample {
  double us = 0;
  long descendant_faults = 0;  // > 0: the process started (and reaped) a process
  double descendant_cpu_us = 0;
};
// The child's line: the last of what it printed (a program it ran may have printed first).
Sample parse_sample(const std::string &out);

// n children of self (--gated, loading libcudnn.so.9), with env in front of this process's
// environment (LD_PRELOAD and LD_AUDIT left out), each waiting on one pipe and released together
// once all have started: their samples, in the order they finished.
std::vector<Sample> crowd(const std::string &self, const std::vector<std::string> &env, int n);

double worst(const std::vector<double> &v);
