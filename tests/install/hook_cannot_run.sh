#!/usr/bin/env bash
# A hook whose program is gone says so in one line instead of letting a misfit load in silence,
# and under on_module_mismatch = "error" fails the command (the environment stays as it was).
. "$(dirname "$0")/common.sh"
need_module_systems
install_to "$t/p"
p=$t/p
site_map >"$p/etc/cudnn-compat/map.toml"
for f in lua tcl; do
  "$p/bin/cudnn-compat" modulefiles --map "$p/etc/cudnn-compat/map.toml" --format $f -o "$t/modules/$f" >/dev/null
done
app_modules "$t/modules"
rm "$p/bin/cudnn-compat"
say="cudnn-compat: cannot run $p/bin/cudnn-compat; the loaded cuDNN modules were not checked"

for system in lmod tcl; do
  $system "$p" load tensorflow/1.0 cudnn/5.0 || true
  has "$say"
  count "cudnn-compat" 1
  [[ $LOADEDMODULES == tensorflow/1.0:cudnn/5.0 ]] || fail "$system: the loads did not happen"
  $system "$p" purge
done

sed -i 's/^\[policy\]$/[policy]\non_module_mismatch = "error"/' "$p/etc/cudnn-compat/map.toml"
for system in lmod tcl; do
  rc=0
  $system "$p" load tensorflow/1.0 cudnn/5.0 || rc=$?
  [[ $rc != 0 ]] || fail "$system: strict mode did not fail the command"
  has "$say"
  [[ -z ${LOADEDMODULES:-} ]] || fail "$system: the environment changed: $LOADEDMODULES"
done
