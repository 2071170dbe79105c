# Issue 20, the first process's time: the probe of the loader's own file starts before the engine
# and leads the process group the engine joins (the engine's start, its execve, no longer comes
# before the family's load), so one kill of that group still ends both. Wrappers record each
# one's pid and group; the engine's group must be the probe's pid. Under LD_AUDIT and LD_PRELOAD.
# (The previous shim started the engine first, in a group of its own that the probe joined.)
source "$(dirname "$0")/common.sh"
own_shim
memo_setting
for program in probe select; do
  wrap_ours $program <<EOF2
read -r _ _ _ _ group _ </proc/\$\$/stat
echo "$program \$\$ \$group" >>"$t/groups"
EOF2
done
export LD_LIBRARY_PATH=$t/own/lib64:$FAKES/9.1.0/lib64
settle

for mode in audit preload; do
  first_decision $mode "$t/groups"
  read -r _ probe probe_group < <(grep '^probe ' "$t/groups")
  read -r _ _ engine_group < <(grep '^select ' "$t/groups")
  [[ -n $probe && $probe == "$probe_group" && $engine_group == "$probe" ]] ||
    fail "$mode: the probe does not lead the engine's group:"$'\n'"$(<"$t/groups")"
done
