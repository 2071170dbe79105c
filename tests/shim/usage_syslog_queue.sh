# Issue 21: the shim never waits for /dev/log, so a node whose datagram queue is the kernel's
# default (10) loses the records of ranks that start together; `map validate` says so where the
# map sends records to syslog, and is quiet at 512 (what systemd sets) or with a spool.
source "$(dirname "$0")/common.sh"
unshare -n true 2>/dev/null || skip "no network namespace here: the queue's length cannot be set"
fake_map 5.0.5 5.1.10 >"$t/map.toml"
printf '[usage]\nmode = "record"\nto = "syslog"\n' >>"$t/map.toml"
validate_at() {
  out=$(unshare -n sh -c 'echo "$1" >/proc/sys/net/unix/max_dgram_qlen && "$2" map validate "$3" 2>&1' \
    sh "$1" "$CUDNN_COMPAT" "$t/map.toml") || fail "map validate failed:"$'\n'"$out"
}
validate_at 10
has "queues only 10 datagrams at /dev/log (net.unix.max_dgram_qlen)"
has "set it to 512 on every node"
validate_at 512
lacks "max_dgram_qlen"
fake_map 5.0.5 5.1.10 >"$t/map.toml"
printf '[usage]\nmode = "record"\nto = "%s"\n' "$t" >>"$t/map.toml"
validate_at 10
lacks "max_dgram_qlen"
