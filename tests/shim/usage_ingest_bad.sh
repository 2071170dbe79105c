# Issue 21, item 3 and its bad inputs: records the real shim wrote to a spool, with a torn line, a
# forged record (another uid, its sum made to match), a record of a newer format and a 1 MB line
# among them, are ingested once (the bad ones skipped and counted, each with a line); a database of
# a newer schema gets a clear line and is left as it was (a full disk and a spool owned by another
# user: usage_full_disk.sh, usage_foreign_spool.sh).
source "$(dirname "$0")/common.sh"
command -v sqlite3 >/dev/null || skip "no sqlite3 (scripts/deps.sh installs it)"
command -v python3 >/dev/null || skip "no python3"
usage_spool
# The bad lines, after the three good ones.
python3 "$(dirname "$0")/usage_records.py" bad "$spool"
db=$t/usage.db
expect_rc 0 "$CUDNN_COMPAT" usage ingest "$t/spool" --db "$db"
has "7 lines: 3 records added, 0 already in the database; skipped 1 torn, 1 forged, 1 of a newer format, 1 too long"
has "line 4: torn: it has no sum (cut short)"
has "line 5: forged: it says uid"
[[ $(sqlite3 "$db" 'select count(*) from records') == 3 ]] || fail "not 3 records in the database"
expect_rc 0 "$CUDNN_COMPAT" usage ingest "$t/spool" --db "$db"
has "0 records added"
expect_rc 0 "$CUDNN_COMPAT" usage report --db "$db"
has "5.1.10           2      1     0"
has "5.0.5 (2)"

# A database of a newer schema: refused, untouched.
cp "$db" "$t/newer.db" && sqlite3 "$t/newer.db" 'PRAGMA user_version=3'
before=$(sha256sum <"$t/newer.db")
expect_rc 2 "$CUDNN_COMPAT" usage ingest "$t/spool" --db "$t/newer.db"
has "holds usage records of schema 3, written by a newer cudnn-compat; this one reads schema 2"
expect_rc 2 "$CUDNN_COMPAT" usage report --db "$t/newer.db"
has "schema 2"
[[ $(sha256sum <"$t/newer.db") == "$before" ]] || fail "the newer database was changed"

# Two ingests started together on a new database: it is made once, both succeed (before, one of a
# pair failed in 9 or 10 pairs of 10: "table meta already exists"; an outside tester).
for pair in 1 2 3 4 5; do
  rm -f "$t/pair.db"
  "$CUDNN_COMPAT" usage ingest "$t/spool" --db "$t/pair.db" >"$t/a" 2>&1 &
  first=$!
  "$CUDNN_COMPAT" usage ingest "$t/spool" --db "$t/pair.db" >"$t/b" 2>&1 || fail "pair $pair: $(cat "$t/b")"
  wait $first || fail "pair $pair: $(cat "$t/a")"
done

# A sparse file of NULs with no line break (`truncate -s`) is one line too long: counted once and
# read past, not read whole again by every later ingest (before, every run reread it all).
mkdir -m 1733 "$t/sparse"
truncate -s 200M "$t/sparse/node.$(id -u).usage"
expect_rc 0 "$CUDNN_COMPAT" usage ingest "$t/sparse" --db "$db"
has "1 lines: 0 records added, 0 already in the database; skipped 0 torn, 0 forged, 0 of a newer format, 1 too long"
expect_rc 0 "$CUDNN_COMPAT" usage ingest "$t/sparse" --db "$db"
has ": 0 lines: 0 records added"

# Read on from where the last ingest stopped, a line is said to be after that byte.
echo "not a record" >>"$spool"
expect_rc 0 "$CUDNN_COMPAT" usage ingest "$t/spool" --db "$db"
has "line 1 after byte "
