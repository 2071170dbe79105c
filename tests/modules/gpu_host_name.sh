# The hooks take the host name whole, as the shim and the engine do (uname(2)): with a space in it
# they took its first word, another node's name, and warned from that node's file (the outside
# test of 2026-12-03). In a UTS namespace of its own, the host name "<first> second": the first
# word's node file says 8.0, where cudnn/9.0 cannot run; the whole name's has nothing, then 8.0.
source "$(dirname "$0")/gpu_common.bash"
[[ -x $lmod_cmd && -f $modulecmd ]] || skip "needs Lmod and Environment Modules (scripts/deps.sh)"
command -v tclsh8.6 >/dev/null || skip "no tclsh8.6"
{ ((EUID == 0)) && unshare -u true 2>/dev/null; } || skip "cannot make a UTS namespace (unshare -u, as root)"
first=gpuhost-$$-$RANDOM
host="$first second"
trap 'rm -rf "$t" "$node_dir/node-$first" "$node_dir/node-$host"' EXIT
SLURMD_NODENAME=$first node_file 8.0 12.4
unset SLURMD_NODENAME
lmod_tree
tcl_tree
# load SYSTEM: `module load cudnn/9.0` on the host named $host; its messages in $out.
load() {
  local cmd=("$lmod_cmd" bash load cudnn/9.0) path=$t/lua
  [[ $1 == tcl ]] && cmd=(tclsh8.6 "$modulecmd" bash load cudnn/9.0) path=$t/tcl
  MODULEPATH=$path unshare -u bash -c 'printf %s "$1" >/proc/sys/kernel/hostname && shift && exec "$@"' \
    _ "$host" "${cmd[@]}" >/dev/null 2>"$t/msg" || true
  msg
}
for system in lmod tcl; do
  load $system
  lacks "cannot run on this node"
done
SLURMD_NODENAME=$host node_file 8.0 12.4
for system in lmod tcl; do
  load $system
  has "cudnn/9.0 (cuDNN 9.0.0) cannot run on this node, compute capability 8.0 with a CUDA 12.4 driver (NVML)"
done
