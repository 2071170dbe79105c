// The memo of the engine's decisions (shared/memo_format.h): a process that loads a library the
// decision table does not know asks here before it starts the engine. A process of the node has
// asked the same before: its answer, and no process started. Another is asking now: wait for its
// answer within the deadline. Nobody has: this process asks, and the engine remembers.
#pragma once

#include "search_dirs.h"

struct asked_need;

#pragma GCC visibility push(hidden)

struct memo_request {
  const char *name;        // as the process asked the loader
  const char *executable;  // the program as it was started
  const char *requester;   // the object that asks ("" for the program)
  const struct search_dirs *dirs;
  const char *pick;  // the file the loader takes from dirs (or the path asked for), or 0
  // The map the contract names for this process (CUDNN_COMPAT_MAP, else its install's): two
  // installs of one build, each with its own map, never share an answer (helper 54).
  const char *map;
  char **env;
  const struct asked_need *need;  // the need as the environment asks it (environment.h)
  // The other libraries of Python environments the process has loaded, as "peer\tPATH\n" lines:
  // their distributions' pins are needs the engine reads, so an answer holds for the same set.
  const char *peers;
};

enum memo_result {
  MEMO_NONE,   // no memo for this request: ask the engine, which remembers nothing
  MEMO_ASK,    // ask the engine with memo_entry() and memo_key(); call memo_done() after
  MEMO_KNOWN,  // *answer is the engine's answer (protocol.h lines), valid until memo_done()
  MEMO_LATE,   // another process is asking the same, and the deadline has passed
};

// r may be 0 (a request the memo cannot key: memo_done is then a no-op).
enum memo_result memo_recall(const struct memo_request *r, long deadline_ms, const char **answer);
// For the engine's command line: the entry it writes and the key it writes in it ("-" for none).
const char *memo_entry(void);
const char *memo_key(void);
// Drops this process's lock on the request and what the memo held for it.
void memo_done(void);

#pragma GCC visibility pop
