# Issue 21, item 3: logrotate's copytruncate empties a record file in place (same inode) and new
# records grow it past where the last ingest stopped; the next ingest reads it from the start
# (records already known add nothing) instead of skipping what lies before the old offset.
source "$(dirname "$0")/common.sh"
command -v python3 >/dev/null || skip "no python3"
usage_spool
db=$t/usage.db
expect_rc 0 "$CUDNN_COMPAT" usage ingest "$t/spool" --db "$db"
has "3 records added"
python3 "$(dirname "$0")/usage_records.py" many "$spool" "$t/new.usage" 50
ino=$(stat -c %i "$spool")
cat "$t/new.usage" >"$spool"  # truncated and written again in place
[[ $(stat -c %i "$spool") == "$ino" ]] || fail "the spool file was replaced, not truncated"
expect_rc 0 "$CUDNN_COMPAT" usage ingest "$t/spool" --db "$db"
has "50 lines: 50 records added"
# Untouched since, it is read on from where the last ingest stopped: nothing new.
expect_rc 0 "$CUDNN_COMPAT" usage ingest "$t/spool" --db "$db"
has "0 lines"
