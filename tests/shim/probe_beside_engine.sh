# Issue 20, bench target: the first process's probe of a library the decision table does not know
# (a user's own copy of FAKE 9.0.0, first on LD_LIBRARY_PATH) is started by the shim beside the
# engine - its parent is the shim's keeper ("cudnn-compat"), not the engine - so that the
# engine's start overlaps the library's load; the engine takes its answer and starts no probe of
# its own. The probe sees its own family first and no other family's directory (FAKE 9.1.0 on the
# path too; its own directory, on the path, stays). Under LD_AUDIT and LD_PRELOAD. (The landed engine started the only probe itself.)
source "$(dirname "$0")/common.sh"
own_shim
memo_setting
wrap_ours probe <<EOF2
echo "\$(cat /proc/\$PPID/comm) \$1 \$LD_LIBRARY_PATH" >>"$t/probes"
EOF2
export LD_LIBRARY_PATH=$t/own/lib64:$FAKES/9.1.0/lib64::/nonexistent
settle

for mode in audit preload; do
  first_decision $mode "$t/probes"
  probes=$(<"$t/probes")
  [[ $probes == "cudnn-compat $t/own/lib64/libcudnn.so.9 $t/own/lib64:$t/own/lib64::/nonexistent" ]] ||
    fail "$mode: not the one probe beside the engine, on its family's path:"$'\n'"$probes"
done
