# Issue 21, bad input: a spool directory owned by another user, who could have written any record
# in it, is refused whole with a line saying so; the database keeps what it had.
source "$(dirname "$0")/common.sh"
command -v sqlite3 >/dev/null || skip "no sqlite3 (scripts/deps.sh installs it)"
[[ $(id -u) == 0 ]] || skip "giving a spool to another user takes root"
id nobody >/dev/null 2>&1 || skip "no user nobody"
usage_spool
db=$t/usage.db
expect_rc 0 "$CUDNN_COMPAT" usage ingest "$t/spool" --db "$db"
cp -r "$t/spool" "$t/theirs" && chown -R nobody "$t/theirs"
expect_rc 2 "$CUDNN_COMPAT" usage ingest "$t/theirs" --db "$db"
has "spool $t/theirs is owned by nobody, who could have written any record in it; not ingested"
[[ $(sqlite3 "$db" 'select count(*) from records') == 3 ]] || fail "the database lost records"
