// Running a benchmark's subject as a process of its own, and summarising repeated timings.
#pragma once

#include <chrono>
#include <string>
#include <vector>

using Clock = std::chrono::steady_clock;

struct Run {
  double us = 0;    // wall time of the whole process
  std::string out;  // what it printed on stdout
};

// Spawns argv with extra_env in front of this process's environment (LD_PRELOAD and LD_AUDIT
// left out) and waits; stdout is captured, stderr is dropped.
Run spawn(const std::vector<std::string> &argv, const std::vector<std::string> &extra_env);

double median(std::vector<double> v);

// "XDG_RUNTIME_DIR=DIR/run", where the shim finds a file instead of its memo's directory: with it
// in the environment the shim neither reads nor writes a memo, and every process decides as the
// first of a node does (the engine's rows mean that).
std::string memo_off(const std::string &dir);
