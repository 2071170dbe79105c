/* The key under which map.toml.decide files a required cuDNN version of one major: its minor and
 * patch in one ordered number, 0 for "no version required". Shared by the table's writer (C++)
 * and its reader in the shim (C). Each minor owns CUDNN_COMPAT_VERSION_MAX + 3 keys - "no patch"
 * first, then patch 0 up to CUDNN_COMPAT_VERSION_MAX + 1 (the writer asks just past each
 * release) - so no two versions the grammar accepts share a key (5.0.99999 is not 5.1). */
#pragma once

#include "version_grammar.h"

/* The table files needs whose patch is below this: cuDNN's own number (CUDNN_VERSION) gives the
 * patch two digits, and the frameworks' integer rules compare that number, in which a larger
 * patch runs into the minor (5.0.150 is 5.1.50 to them). The shim leaves other needs to the
 * engine. */
enum { CUDNN_COMPAT_TABLE_PATCHES = 100 };

static inline unsigned long cudnn_compat_decision_key(unsigned long minor, int has_patch,
                                                      unsigned long patch) {
  return minor * (CUDNN_COMPAT_VERSION_MAX + 3ul) + (has_patch ? patch + 2 : 1);
}
