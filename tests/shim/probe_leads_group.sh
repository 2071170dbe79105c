# Issue 20, the first process's time: the probe of the loader's own file starts before the engine
# and leads the process group the engine joins (the engine's start, its execve, no longer comes
# before the family's load), so one kill of that group still ends both. Wrappers record each
# one's pid and group; the engine's group must be the probe's pid. Under LD_AUDIT and LD_PRELOAD.
# (The previous shim started the engine first, in a group of its own that the probe joined.)
source "$(dirname "$0")/common.sh"
own_shim
memo_setting
for program in probe select; do
  mv "$t/lib/cudnn-compat-$program" "$t/lib/cudnn-compat-$program.real"
  cat >"$t/lib/cudnn-compat-$program" <<EOF2
#!/bin/sh
read -r _ _ _ _ group _ </proc/\$\$/stat
echo "$program \$\$ \$group" >>"$t/groups"
exec "\$0.real" "\$@"
EOF2
  chmod +x "$t/lib/cudnn-compat-$program"
done
export LD_LIBRARY_PATH=$t/own/lib64:$FAKES/9.1.0/lib64
settle

for mode in audit preload; do
  rm -rf "$memo"
  : >"$t/groups"
  $mode "$t/family" libcudnn.so.9 >"$t/output" 2>&1 || true
  out=$(<"$t/output")
  has "loaded $FAKES/9.1.0/lib64/libcudnn.so.9"
  lacks "cudnn-compat:"
  read -r _ probe probe_group < <(grep '^probe ' "$t/groups")
  read -r _ _ engine_group < <(grep '^select ' "$t/groups")
  [[ -n $probe && $probe == "$probe_group" && $engine_group == "$probe" ]] ||
    fail "$mode: the probe does not lead the engine's group:"$'\n'"$(<"$t/groups")"
done
