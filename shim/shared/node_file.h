/* Where a node's facts (its GPUs and its driver's CUDA) are remembered for one boot:
 *   /tmp/cudnn-compat-<uid>/node-<boot id>-<node name>
 * (/tmp: node-local on every cluster we know; the node name because test clusters run several
 * slurmd on one host, one boot). The names are the site contract's (cmake/SiteContract.cmake),
 * shared by the writer (src/core/system/node_facts.cc), the shim's fast path (C) and both module
 * hooks. Its lines: "gpus\t7.5,9.0", "driver\t12.2", "source\t...", "problem\t..." (empty when
 * learnt), "end". */
#pragma once

#include "site_contract.h"

#define CUDNN_COMPAT_NODE_DIR_PREFIX SITE_NODE_DIR_PREFIX
#define CUDNN_COMPAT_NODE_FILE_PREFIX SITE_NODE_FILE_PREFIX
#define CUDNN_COMPAT_BOOT_ID SITE_BOOT_ID
