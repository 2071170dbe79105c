/* Where a node's facts (its GPUs and its driver's CUDA) are remembered for one boot:
 *   /tmp/cudnn-compat-<uid>/node-<boot id>-<node name>
 * (/tmp: node-local on every cluster we know; the node name because test clusters run several
 * slurmd on one host, one boot). Shared by the writer (src/core/system/node_facts.cc) and the
 * shim's fast path (C). Its lines: "gpus\t7.5,9.0", "driver\t12.2", "source\t...",
 * "problem\t..." (empty when learnt), "end". */
#pragma once

#define CUDNN_COMPAT_NODE_DIR_PREFIX "/tmp/cudnn-compat-"
#define CUDNN_COMPAT_NODE_FILE_PREFIX "node-"
#define CUDNN_COMPAT_BOOT_ID "/proc/sys/kernel/random/boot_id"
