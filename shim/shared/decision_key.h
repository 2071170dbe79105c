/* The key under which map.toml.decide files a required cuDNN version of one major: its minor and
 * patch in one ordered number (a missing patch sorts before patch 0), 0 for "no version
 * required". Shared by the table's writer (C++) and its reader in the shim (C). */
#pragma once

static inline unsigned long cudnn_compat_decision_key(unsigned long minor, int has_patch,
                                                      unsigned long patch) {
  return minor * 100000ul + (has_patch ? patch + 1 : 0) + 1;
}
