# Issue 21, bad input: a full disk. The database, holding three records the real shim wrote, on a
# 256 KiB tmpfs of a mount namespace, is fed 20,000 more: ingest says the disk is full, exits 1,
# and every record ingested before is still there.
source "$(dirname "$0")/common.sh"
command -v sqlite3 >/dev/null || skip "no sqlite3 (scripts/deps.sh installs it)"
command -v python3 >/dev/null || skip "no python3"
namespace=(unshare --mount --propagation private)
"${namespace[@]}" true 2>/dev/null || namespace=(unshare --user --map-root-user --mount --propagation private)
"${namespace[@]}" true 2>/dev/null || skip "no mount namespace here: a small file system cannot be made"
usage_spool
expect_rc 0 "$CUDNN_COMPAT" usage ingest "$t/spool" --db "$t/usage.db"
python3 "$(dirname "$0")/usage_records.py" many "$spool" "$t/many.usage" 20000
cat >"$t/full.sh" <<'SH'
t=$1; mkdir "$t/small" && mount -t tmpfs -o size=256k tmpfs "$t/small" && cp "$t/usage.db" "$t/small/"
"$CUDNN_COMPAT" usage ingest "$t/many.usage" --db "$t/small/usage.db"; echo "exit $?"
sqlite3 "$t/small/usage.db" 'select count(*) from records' | sed 's/^/kept /'
SH
out=$("${namespace[@]}" bash "$t/full.sh" "$t" 2>&1)
has "exit 1"
has "database or disk is full"
has "every record ingested before is intact"
has "kept 3"
