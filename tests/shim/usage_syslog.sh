# Issue 21, items 1-3 at scale: 1,000 processes of mixed needs (fit, redirected, refused; the fast
# path's table and the engine's answer; both front ends) each send exactly one record to the real
# rsyslogd, none lost; `usage ingest` reads them back once. Then rsyslogd stops: every process
# still loads as before, each record is dropped and counted (the size of
# /var/tmp/cudnn-compat-usage-dropped.UID), and the next record sent carries the count (drops=).
source "$(dirname "$0")/common.sh"
syslog_namespace
tf2016_client
fake_map 5.0.5 5.1.10 >"$t/map.toml"
printf '[usage]\nmode = "record"\nto = "syslog"\n' >>"$t/map.toml"
cp "$t/map.toml" "$t/engine.toml"  # no table beside it: every decision asks the engine
CUDNN_COMPAT_MAP=$t/map.toml "$CUDNN_COMPAT" map validate >/dev/null
# The site's rsyslog: imuxsock with the sender's uid (the reader checks it against the record).
cat >"$t/rsyslog.conf" <<CONF
global(workDirectory="$t")
module(load="imuxsock" SysSock.Name="/dev/log" SysSock.Annotate="on" SysSock.ParseTrusted="on"
       SysSock.RateLimit.Interval="0")
template(name="usage" type="string" string="%timegenerated% %hostname% %syslogtag% uid=%\$!uid%%msg%\n")
if \$programname == "cudnn-compat-usage" then action(type="omfile" file="$t/usage.log" template="usage")
CONF

# One process of the mix: its number picks the need, the front end and the map.
cat >"$t/one.sh" <<'SH'
i=$1 t=$2
needs=(5.0.5 5.1.3 5.2) modes=(AUDIT PRELOAD)
map=$t/map.toml; ((i % 10 == 0)) && map=$t/engine.toml
CUDNN_COMPAT_MAP=$map CUDNN_COMPAT_REQUIRE=${needs[i % 3]} LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 \
  env LD_${modes[i / 3 % 2]}="$SHIM" "$t/tf2016" >"$t/out/$i" 2>&1
echo "exit $?" >>"$t/out/$i"
SH
many() { seq "$1" "$2" | xargs -P 4 -n 1 -I{} bash "$t/one.sh" {} "$t"; }
wait_lines() { for _ in $(seq 300); do (($(cat "$t/usage.log" 2>/dev/null | wc -l) >= $1)) && break; sleep 0.1; done; }

cat >"$t/in_namespace.sh" <<'SH'
set -eu
t=$1 rsyslogd=$2; source "$t/functions"
mkdir "$t/dev" "$t/out" && mount --rbind /dev "$t/dev" && mount -t tmpfs tmpfs /dev
touch /dev/null && mount --bind "$t/dev/null" /dev/null
mount -t tmpfs tmpfs /var/tmp  # the drop count of this test's own
"$rsyslogd" -n -f "$t/rsyslog.conf" -i "$t/rsyslog.pid" & daemon=$!
for i in $(seq 100); do [[ -S /dev/log ]] && break; sleep 0.1; done
many 1 1000
wait_lines 1000
kill $daemon && wait $daemon || true
mkdir "$t/up" && mv "$t"/out/* "$t/up/"
many 1001 1300  # no one listens: dropped and counted
cp /var/tmp/cudnn-compat-usage-dropped.* "$t/dropped" || touch "$t/dropped"
"$rsyslogd" -n -f "$t/rsyslog.conf" -i "$t/rsyslog.pid" & daemon=$!
for i in $(seq 100); do [[ -S /dev/log ]] && break; sleep 0.1; done
many 1301 1301
wait_lines 1001
kill $daemon && wait $daemon || true
SH
declare -f many wait_lines >"$t/functions"
export FAKES SHIM
expect_rc 0 "${namespace[@]}" bash "$t/in_namespace.sh" "$t" "$rsyslogd"

# Up: one record each, none lost; every process loaded what it would have (the 2016 client
# accepts only a 5.1: the 5.0.5 that fits a 5.0.5 need, and the one kept where nothing fits 5.2,
# fail it).
out=$(cat "$t/usage.log")
count " U1 t=" 1001
count " verdict=redirected mode=record " 334
count " verdict=fit mode=record " 333
count " verdict=refused mode=record " 334
out=$(cat "$t"/up/*)
count "exit 0" 334
count "cuDNN 5110 from $FAKES/5.1.10/lib64/libcudnn.so.5" 334
count "Loaded runtime CuDNN library: 5005" 666
lacks "internal error"
# Down: the same mix behaves as before; 300 drops counted; the next record says so.
out=$(cat "$t"/out/*)
count "exit 0" 100
count "cuDNN 5110 from $FAKES/5.1.10/lib64/libcudnn.so.5" 100
count "Loaded runtime CuDNN library: 5005" 201
lacks "internal error"
[[ $(stat -c %s "$t/dropped") == 300 ]] || fail "dropped: $(stat -c %s "$t/dropped"), expected 300"
out=$(tail -n 1 "$t/usage.log")
has " drops=300 "

# Ingest: 1,001 records; again: nothing added.
expect_rc 0 "$CUDNN_COMPAT" usage ingest "$t/usage.log" --db "$t/usage.db"
has "1001 records added, 0 already in the database; skipped 0 torn, 0 forged"
expect_rc 0 "$CUDNN_COMPAT" usage ingest "$t/usage.log" --db "$t/usage.db"
has "0 records added"
expect_rc 0 "$CUDNN_COMPAT" usage report --db "$t/usage.db" --json
has '"dropped": 300,'
