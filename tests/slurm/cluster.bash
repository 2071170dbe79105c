# A private two-node Slurm 22.05 on this one machine: munged with its own key and socket,
# slurmctld, and `slurmd -N node1` / `-N node2` on loopback ports, all under directory $1.
# Sourced by tests/slurm/common.sh and bench/slurm_bench.sh; needs root (slurmd runs steps as the
# user) and the Debian packages slurm-wlm and munge.

# slurm_cluster_reason: why no cluster can start here, or nothing.
slurm_cluster_reason() {
  [[ $(id -u) == 0 ]] || { echo "slurmd must run as root to start steps; running as $(id -un)"; return; }
  local b
  for b in munged slurmctld slurmd srun sbatch sinfo; do
    command -v "$b" >/dev/null || [[ -x /usr/sbin/$b ]] || { echo "$b not installed (bash scripts/deps.sh)"; return; }
  done
}

# The first of 3 free loopback ports, chosen from the PID so that tests side by side rarely
# collide, and below the kernel's ephemeral range (32768 on), so that no client socket takes one
# between this check and slurmd's bind.
_slurm_free_base() {
  local base used=" " addr port
  while read -r _ addr _; do  # the kernel's socket tables: local address as HEXIP:HEXPORT
    port=${addr##*:}
    [[ $port =~ ^[0-9A-F]{4}$ ]] && used+="$((16#$port)) "
  done < <(cat /proc/net/tcp /proc/net/tcp6 2>/dev/null)
  for ((base = 10000 + ($$ * 7) % 22000; ; base = 10000 + (base + 3 - 10000) % 22000)); do
    [[ $used == *" $base "* || $used == *" $((base + 1)) "* || $used == *" $((base + 2)) "* ]] || break
  done
  echo "$base"
}

# slurm_cluster_start DIR [PLUGSTACK LINE]: writes DIR/slurm.conf (with DIR/plugstack.conf holding
# the line, if any), starts the daemons, exports SLURM_CONF and waits until both nodes are idle.
slurm_cluster_start() {
  local dir=$1 plug=${2:-} base
  mkdir -p "$dir/munge" "$dir/state" "$dir/spool"
  chmod 700 "$dir/munge"
  base=$(_slurm_free_base)
  head -c 1024 /dev/urandom >"$dir/munge/key"
  chmod 400 "$dir/munge/key"
  /usr/sbin/munged --force --socket="$dir/munge/sock" --key-file="$dir/munge/key" \
    --pid-file="$dir/munge/pid" --log-file="$dir/munge/log" --seed-file="$dir/munge/seed" </dev/null >/dev/null || return 1
  printf '%s\n' "$plug" >"$dir/plugstack.conf"
  cat >"$dir/slurm.conf" <<CONF
ClusterName=cudnncompat
SlurmctldHost=$(hostname -s)(127.0.0.1)
SlurmctldPort=$base
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/sock
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd-%n.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd-%n.log
PlugStackConfig=$dir/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
SwitchType=switch/none
ReturnToService=2
# More CPUs than the host has, so back-to-back steps never queue behind one still completing.
SlurmdParameters=config_overrides
SchedulerType=sched/builtin
SlurmctldTimeout=30
SlurmdTimeout=30
InactiveLimit=0
KillWait=2
MinJobAge=5
# Job ids of its own, so that clusters running side by side never share one (the plugin keys
# files in /tmp by job id).
FirstJobId=$(( (base - 9000) * 1000 ))
NodeName=node1 NodeHostname=localhost NodeAddr=127.0.0.1 Port=$((base + 1)) CPUs=16 State=UNKNOWN
NodeName=node2 NodeHostname=localhost NodeAddr=127.0.0.1 Port=$((base + 2)) CPUs=16 State=UNKNOWN
PartitionName=debug Nodes=node1,node2 Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:4
CONF
  export SLURM_CONF=$dir/slurm.conf
  /usr/sbin/slurmctld -f "$SLURM_CONF" -i </dev/null >/dev/null || return 1
  # SLURMD_ENV_node1/_node2: VAR=VALUE words for one node's own environment (its map, say).
  # SLURMD_PLUGSTACK_node1/_node2: that node's own plugstack.conf line (a node without the plugin,
  # or with another copy of it): its slurmd reads a slurm.conf naming its own plugstack.conf.
  local n conf var
  for n in node1 node2; do
    conf=$SLURM_CONF var=SLURMD_PLUGSTACK_$n
    if [[ -n ${!var+set} ]]; then
      printf '%s\n' "${!var}" >"$dir/plugstack-$n.conf"
      sed "s|^PlugStackConfig=.*|PlugStackConfig=$dir/plugstack-$n.conf|" "$SLURM_CONF" >"$dir/slurm-$n.conf"
      conf=$dir/slurm-$n.conf
    fi
    var=SLURMD_ENV_$n
    env ${!var:-} /usr/sbin/slurmd -f "$conf" -N $n </dev/null >/dev/null || return 1
  done
  local i
  for ((i = 0; i < 300; ++i)); do
    [[ $(sinfo -h -N -o '%N %t' 2>/dev/null | grep -c ' idle') == 2 ]] && return 0
    sleep 0.2
  done
  echo "slurm: nodes did not come up; sinfo says: $(sinfo -h -N -o '%N %t' 2>&1 | tr '\n' ' ')" >&2
  return 1
}

# slurm_cluster_stop DIR: ends the daemons started by slurm_cluster_start DIR (by their PID files).
# The slurmd first, given 5 s to end their steps; slurmctld and munged, whose state dies with the
# directory, are given half a second.
slurm_cluster_stop() {
  local dir=$1 pids i group
  for group in "100 $dir/slurmd-node1.pid $dir/slurmd-node2.pid" "10 $dir/slurmctld.pid $dir/munge/pid"; do
    set -- $group
    local tries=$1
    shift
    pids=$(cat "$@" 2>/dev/null) || true
    [[ -n $pids ]] || continue
    kill $pids 2>/dev/null || true
    for ((i = 0; i < tries; ++i)); do
      kill -0 $pids 2>/dev/null || break
      sleep 0.05
    done
    kill -KILL $pids 2>/dev/null || true
  done
}
