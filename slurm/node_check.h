// The per-node check of the SPANK plugin: does this node's map hold a cuDNN that fits the job's
// requirement? Answered by the installed `cudnn-compat resolve`, the project's one decision
// procedure, run in the task's own context (the user's identity, the job's environment).
#pragma once

#include <stddef.h>

enum node_fit {
  NODE_FITS,       // a release in the node's map serves the requirement
  NODE_MISFIT,     // the map is fine and nothing in it fits
  NODE_UNCHECKED,  // no answer: broken or missing map, no cudnn-compat, a timeout
};

struct node_check {
  const char *bin;      // the cudnn-compat binary
  const char *require;  // what --cudnn said: 5.1, 8.9.7
  const char *map;      // the node's map, or NULL for cudnn-compat's own search
  char *const *env;     // the job's environment (the task's, before the plugin's changes)
};

// Runs the check and writes one line for the user into line (node name filled in by the caller's
// format: the line starts after "cudnn-compat: <node> "). Never fails the caller.
enum node_fit node_check_run(const struct node_check *c, char *line, size_t size);

// What the node has, judged from resolve's answer (pure, for the check above): rc is resolve's exit
// status, out its stdout (--json), err its stderr.
enum node_fit node_check_judge(int rc, const char *out, const char *err, char *line, size_t size);
