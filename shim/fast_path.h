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
  const char *pick;     // the file the loader takes, 0 when it takes none (the load fails)
  int pick_known;       // 0: the shim could not tell which file the loader takes
  char **env;           // the environment now (the node's overrides)
};

// The table's entries the decision resolved, for the usage record: the loader's file and the one
// handed over (-1: not in the table), and whether the handover is the loader's own release at its
// probed path (a link reached it), which is no redirect.
struct fast_resolved {
  long pick_entry, use_entry;
  int same_release;
};

enum fast_answer fast_decide(const struct fast_request *r, const char **use);
// Whether the last FAST_UNKNOWN was for want of this node's GPUs and driver (no node file yet).
int fast_node_unlearnt(void);

// From the same trusted table, the places it lists (its "rel" rows): a directory other than
// not_dir, of the release whose cudnnGetVersion() is number, that holds base; 0 when none.
const char *fast_same_release(const char *map, unsigned long number, const char *base,
                              const char *not_dir);
// Whether the trusted table lists file (by its identity: inode, size, mtime - the engine's
// table_knows): its word on the file is then known without a probe.
int fast_knows_file(const char *map, const char *file);
// The release number and source ("module", "wheel", ...) of the place in dir; 0 when the table
// does not list it.
int fast_place_of(const char *map, const char *dir, unsigned long *number, const char **source);

#pragma GCC visibility pop
