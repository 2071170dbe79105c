# Issue 24 item 1: both hooks read the same tables. An Lmod misfit is told from map.toml.misfits
# without starting module-check, in the very words module-check prints for Lmod (`module swap`);
# a table not believed still asks module-check.
source "$(dirname "$0")/common.sh"
[[ -x $lmod_cmd ]] || skip "no Lmod at $lmod_cmd (scripts/deps.sh installs it)"
lmod_tree
module() { lmod_module "$@"; }
printf '#!/bin/sh\necho "$*" >>"%s"\nexec "%s" "$@"\n' "$t/started" "$CUDNN_COMPAT" >"$t/counted"
chmod +x "$t/counted"
export CUDNN_COMPAT_BIN=$t/counted

module load cudnn/5.0 tensorflow/1.0 || true; msg
[[ ! -e $t/started ]] || fail "module-check was started: $(cat "$t/started")"
expected=$({ cc module-check --system lmod --need tensorflow/1.0=5.1 --loaded cudnn/5.0 \
  --loaded "tensorflow/1.0=$t/lua/tensorflow/1.0.lua" || true; } | tr -s ' ')
[[ $expected == "warning: tensorflow/1.0 was built with cuDNN 5.1 but cudnn/5.0"*"module swap cudnn/5.0 cudnn/5.1"* ]] ||
  fail "module-check said: $expected"
has "${expected#warning: }"
occurs "was built with" 1
module purge

# Strict: the table's line fails the command, the environment unchanged.
strict_map
rc=0; module load tensorflow/1.0 cudnn/5.0 || rc=$?; msg
[[ $rc != 0 ]] || fail "strict mode did not fail the command"
has "tensorflow/1.0 was built with cuDNN 5.1 but cudnn/5.0 provides 5.0.5"
[[ ! -e $t/started ]] || fail "module-check was started: $(cat "$t/started")"
[[ -z ${LOADEDMODULES:-} ]] || fail "the environment changed: $LOADEDMODULES"
module purge

# A misfits table cut short is not believed: module-check answers, in the same words.
head -n -1 "$t/map.toml.misfits" >"$t/cut" && touch -r "$t/map.toml.misfits" "$t/cut"
mv "$t/cut" "$t/map.toml.misfits"
rc=0; module load tensorflow/1.0 cudnn/5.0 || rc=$?; msg
has "tensorflow/1.0 was built with cuDNN 5.1 but cudnn/5.0 provides 5.0.5"
[[ -s $t/started ]] || fail "a misfits table cut short was believed"
