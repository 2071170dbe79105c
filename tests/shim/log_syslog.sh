# Issue 27, item 6: CUDNN_COMPAT_LOG=syslog sends the shim's line to syslog (a datagram to /dev/log,
# tagged cudnn-compat[PID]) instead of fd 2, under both front ends. The real rsyslogd listens on a
# /dev/log of this test's own (a private mount namespace with its own /dev), writing to a file.
source "$(dirname "$0")/common.sh"
rsyslogd=/usr/sbin/rsyslogd
[[ -x $rsyslogd ]] || skip "no rsyslogd (scripts/deps.sh installs rsyslog)"
namespace=(unshare --mount --propagation private)
"${namespace[@]}" true 2>/dev/null || namespace=(unshare --user --map-root-user --mount --propagation private)
"${namespace[@]}" true 2>/dev/null || skip "no mount namespace here: ${namespace[*]} failed"
tf2016_client
fake_map 5.0.5 >"$t/map.toml"  # nothing fits 5.1: the shim has a line to say
export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 CUDNN_COMPAT_REQUIRE=5.1.3 CUDNN_COMPAT_LOG=syslog
cat >"$t/rsyslog.conf" <<CONF
global(workDirectory="$t")
module(load="imuxsock" SysSock.Name="/dev/log")
template(name="line" type="string" string="%syslogtag%%msg%\n")
*.* action(type="omfile" file="$t/syslog.out" template="line")
CONF

# In the namespace: /dev is a tmpfs holding the real null and the test's own log socket.
cat >"$t/in_namespace.sh" <<'SH'
set -eu
t=$1 rsyslogd=$2; shift 2
mkdir "$t/dev" && mount --rbind /dev "$t/dev" && mount -t tmpfs tmpfs /dev
touch /dev/null && mount --bind "$t/dev/null" /dev/null
"$rsyslogd" -n -f "$t/rsyslog.conf" -i "$t/rsyslog.pid" &
for i in $(seq 100); do [[ -S /dev/log ]] && break; sleep 0.1; done
for mode in AUDIT PRELOAD; do
  env LD_$mode="$SHIM" "$t/tf2016" 2>"$t/stderr.$mode" || echo "$mode: exit $?"
done
# rsyslogd writes its own start line too: wait for the two lines of the shim.
for i in $(seq 100); do (($(grep -c "^cudnn-compat\[" "$t/syslog.out" 2>/dev/null || true) >= 2)) && break; sleep 0.1; done
kill $! && wait $! || true
SH
expect_rc 0 "${namespace[@]}" bash "$t/in_namespace.sh" "$t" "$rsyslogd"
has "AUDIT: exit 1"
has "PRELOAD: exit 1"
out=$(cat "$t/syslog.out")
count "cudnn-compat[" 2
count "]: libcudnn.so.5: needs 5.1.3 from CUDNN_COMPAT_REQUIRE" 2
out=$(cat "$t"/stderr.*)
has "Loaded runtime CuDNN library: 5005"
lacks "cudnn-compat"
