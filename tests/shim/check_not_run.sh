# Issue 27, item 14: when the check cannot run, the line says so and why - never that an installed
# release "does not load", nor "Ask the admins": a probe that cannot be executed (no execute
# permission: EACCES), and a process limit (`ulimit -u`, as an unprivileged user: EAGAIN) that
# stops the probe, the engine or the keeper. And no line at all when there is no cuDNN anywhere
# (the ordinary load fails on its own). With the landed shim the first two said 5.0.5 "does not
# load ... Ask the admins for cuDNN 5.1.x", the third spoke of a missing version map.
source "$(dirname "$0")/common.sh"
[[ $(id -u) != 0 ]] || nobody_reads "$FAKES/5.0.5/lib64/libcudnn.so.5"
tf2016_client
own_shim
tf2016_setting

chmod -x "$t/lib/cudnn-compat-probe"
for mode in audit preload; do
  expect_rc 1 env LD_${mode^^}=$SHIM "$t/tf2016"
  has "Loaded runtime CuDNN library: 5005"
  has "$FAKES/5.0.5/lib64/libcudnn.so.5 could not be checked (cannot run $t/lib/cudnn-compat-probe: Permission denied)"
  count "cudnn-compat:" 1
  lacks "does not load"
  lacks "Ask the admins"
done
chmod +x "$t/lib/cudnn-compat-probe"

# As nobody (RLIMIT_NPROC binds no root process), with 1, 2 and 3 processes allowed: the host and
# its keeper, the engine, then the probe find no room. Each says what could not start, and why.
command -v setpriv >/dev/null || skip "no setpriv (util-linux)"
chmod 755 "$t"
for mode in audit preload; do
  for limit in 1 2 3; do
    expect_rc 1 setpriv --reuid=65534 --regid=65534 --clear-groups \
      bash -c 'ulimit -u "$1" && shift && exec "$@"' _ $limit env LD_${mode^^}=$SHIM "$t/tf2016"
    has "Loaded runtime CuDNN library: 5005"
    count "cudnn-compat: could not check libcudnn.so.5" $((limit < 3))
    [[ $limit == 3 ]] || has "(EAGAIN: the limit on processes (ulimit -u, a cgroup's pids.max) is reached)"
    [[ $limit != 3 ]] || has "could not be checked (cannot run $t/lib/cudnn-compat-probe: Resource temporarily unavailable)"
    count "cudnn-compat:" 1
    lacks "does not load"
    lacks "Ask the admins"
  done
done

# No cuDNN anywhere: the loader's own error, and no line of ours.
unset LD_LIBRARY_PATH
rm "$t/map.toml"
for mode in audit preload; do
  expect_rc 1 env LD_${mode^^}=$SHIM "$t/tf2016"
  has "libcudnn.so.5: cannot open shared object file"
  lacks "cudnn-compat"
done
