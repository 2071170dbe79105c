#!/usr/bin/env bash
# A map refused for an error said by its first warning: `verison = "9.1.0"` is an unknown key (a
# warning) and a [[cudnn]] without its version (the error), and `module load`'s hook, the shim's
# engine and `srun --cudnn` said only "warning: unknown key 'verison' ... is ignored": a reason
# that reads as harmless (admin tester helper 115, finding 4). Each names the error now.
. "$(dirname "$0")/common.sh"
printf 'schema = 1\n[[cudnn]]\nverison = "5.1.10"\nlib = "%s"\nmodule = "cudnn/5.1"\n' \
  "$FAKES/5.1.10/lib64" >"$t/map.toml"
export CUDNN_COMPAT_MAP=$t/map.toml
expect_rc 1 cc map validate
has "1 error(s), 1 warning(s)"
has "error: missing key 'version'"
expect_rc 0 cc module-check --system lmod --need tf/1=5.1 --loaded cudnn/5.0=
has "note: cannot check the cuDNN modules: $t/map.toml:2:1: error: missing key 'version'"
lacks "warning"
