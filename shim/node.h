// What the fast path knows of the node it runs on: its GPUs and its driver's CUDA, from the
// overrides or from the node file the engine wrote for this boot (shim/shared/node_file.h). The
// shim never learns them itself: a node without its file goes to the engine once per boot.
#pragma once

#pragma GCC visibility push(hidden)

struct node_facts {
  int gpus;               // how many of gpu[] are known (0: none known)
  unsigned long gpu[16];  // compute capability major * 10 + minor
  unsigned long driver;   // the CUDA its driver runs, major * 1000 + minor * 10; 0 unknown
  int overridden;         // from CUDNN_COMPAT_GPU_ARCH and CUDNN_COMPAT_DRIVER_CUDA
};

// 1 with *out filled in; 0 when the engine must decide (no node file yet, an override or a file
// that says the facts could not be learnt, anything unreadable).
int node_facts(char **env, struct node_facts *out);

#pragma GCC visibility pop
