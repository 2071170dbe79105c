# Issue 24 item 1: both hooks read the same tables. An Lmod misfit is told from map.toml.misfits
# without starting module-check, in the very words module-check prints for Lmod (`module swap`);
# a table not believed still asks module-check.
source "$(dirname "$0")/common.sh"
[[ -x $lmod_cmd ]] || skip "no Lmod at $lmod_cmd (scripts/deps.sh installs it)"
lmod_tree
module() { lmod_module "$@"; }
counted_starts

told_from_table lmod "$t/lua/tensorflow/1.0.lua" "module swap"

# Strict: module-check's error fails the command, the environment unchanged.
strict_from_engine "tensorflow/1.0 was built with cuDNN 5.1 but cudnn/5.0 provides 5.0.5"
[[ -z ${LOADEDMODULES:-} ]] || fail "the environment changed: $LOADEDMODULES"
module purge
lenient_map

# A misfits table cut short is not believed: module-check answers, in the same words.
head -n -1 "$t/map.toml.misfits" >"$t/cut" && touch -r "$t/map.toml.misfits" "$t/cut"
mv "$t/cut" "$t/map.toml.misfits"
rc=0; module load tensorflow/1.0 cudnn/5.0 || rc=$?; msg
has "tensorflow/1.0 was built with cuDNN 5.1 but cudnn/5.0 provides 5.0.5"
[[ -s $t/started ]] || fail "a misfits table cut short was believed"

# A map that grew to 4 GB after validation is not read at module load.
module purge
huge_map_not_read
