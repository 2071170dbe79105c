# Issue 21 re-test, item 5: after logrotate's copytruncate (the same inode, emptied and written
# again past the last ingest's offset) of a syslog file whose line ending at that offset is not a
# record (another program's line), the next ingest still reads the file from its start: the
# database keeps a fingerprint of the bytes it read, not a guess from the last line.
source "$(dirname "$0")/common.sh"
command -v python3 >/dev/null || skip "no python3"
usage_spool
db=$t/usage.db
python3 "$(dirname "$0")/usage_records.py" many "$spool" "$t/first.usage" 3
# Other processes than the first file's (pids 1000003 on).
python3 "$(dirname "$0")/usage_records.py" many "$spool" "$t/all.usage" 64
tail -n +4 "$t/all.usage" >"$t/second.usage"
# Syslog lines as rsyslog writes them with the recipe's template (docs/usage.md), among others.
as_syslog() { sed "s/^/Dec  2 06:00:00 node7 cudnn-compat-usage[42]: uid=$(id -u) /"; }
log=$t/usage.log
{ as_syslog <"$t/first.usage"; echo "Dec  2 06:00:01 node7 kernel: eth0: link up"; } >"$log"
expect_rc 0 "$CUDNN_COMPAT" usage ingest "$log" --db "$db"
has "3 records added"
old=$(stat -c %s "$log") ino=$(stat -c %i "$log")
# Rotated by copytruncate, then written again: a new record, another program's line that ends
# exactly where the last ingest stopped, then more new records.
python3 - "$t/second.usage" "$old" "$(id -u)" >"$t/rotated" <<'PY'
import sys
recs = open(sys.argv[1]).read().splitlines()
old, uid = int(sys.argv[2]), sys.argv[3]
line = lambda r: "Dec  2 07:00:00 node7 cudnn-compat-usage[42]: uid=%s %s\n" % (uid, r)
head = line(recs[0])
other = "Dec  2 07:00:01 node7 sshd[7]: session opened "
pad = old - len(head) - len(other) - 1
assert pad > 0, "the first file is too short for the test"
sys.stdout.write(head + other + "x" * pad + "\n" + "".join(line(r) for r in recs[1:61]))
PY
cat "$t/rotated" >"$log"  # copytruncate: truncated and written again in place
[[ $(stat -c %i "$log") == "$ino" ]] || fail "the file was replaced, not truncated"
[[ $(head -c "$old" "$log" | tail -n 1) == *sshd* ]] || fail "the line at the old offset is no other program's"
expect_rc 0 "$CUDNN_COMPAT" usage ingest "$log" --db "$db"
has "62 lines: 61 records added"
# Untouched since: read on from its offset, nothing new; grown: only the new lines are read.
expect_rc 0 "$CUDNN_COMPAT" usage ingest "$log" --db "$db"
has "0 lines"
as_syslog <"$spool" >>"$log"
expect_rc 0 "$CUDNN_COMPAT" usage ingest "$log" --db "$db"
has "3 lines: 3 records added"
