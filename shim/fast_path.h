// The decision without a process: when the map's decision table (map.toml.decide, written by
// `map validate` and `scan` with the engine's own rules and ranking) knows both the file the
// loader would take and the one to hand over, the shim looks the answer up in it. It decides
// nothing itself: any case the table does not settle goes to the engine.
#pragma once

#pragma GCC visibility push(hidden)

enum fast_answer {
  FAST_UNKNOWN,  // ask the engine
  FAST_KEEP,     // the ordinary load fits
  FAST_USE,      // load *use instead
};

struct fast_request {
  const char *map;      // the map's path
  int major;            // the major in the requested name
  const char *require;  // CUDNN_COMPAT_REQUIRE, or 0
  const char *cuda;     // CUDNN_COMPAT_CUDA, or 0
  const char *pick;     // the file the loader takes from the directories before ld.so.cache, or 0
  char **env;           // the environment now (the node's overrides)
};

enum fast_answer fast_decide(const struct fast_request *r, const char **use);

#pragma GCC visibility pop
