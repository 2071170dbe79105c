# Issue 21, item 3 and its bad inputs: records the real shim wrote to a spool, with a torn line, a
# forged record (another uid, its sum made to match), a record of a newer format and a 1 MB line
# among them, are ingested once (the bad ones skipped and counted, each with a line); a database of
# a newer schema, a full disk and a spool owned by another user each get a clear line, and nothing
# already ingested is lost.
source "$(dirname "$0")/common.sh"
command -v sqlite3 >/dev/null || skip "no sqlite3 (scripts/deps.sh installs it)"
command -v python3 >/dev/null || skip "no python3"
tf2016_client
mkdir "$t/spool"
fake_map 5.0.5 5.1.10 >"$t/map.toml"
printf '[usage]\nmode = "record"\nto = "%s"\n' "$t/spool" >>"$t/map.toml"
for need in 5.0.5 5.1.3 5.1.3; do
  LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 CUDNN_COMPAT_REQUIRE=$need LD_AUDIT=$SHIM "$t/tf2016" >/dev/null 2>&1 || true
done
spool=$(echo "$t"/spool/*.usage)
# The bad lines, after the three good ones: the sum is FNV-1a of what precedes " sum=".
python3 - "$spool" <<'PY'
import sys
path = sys.argv[1]
good = open(path).read().splitlines()[0]
def sign(body):
    h = 2166136261
    for b in body.encode():
        h = ((h ^ b) * 16777619) & 0xffffffff
    return "%s sum=%08x" % (body, h)
body = good[:good.rindex(" sum=")]
uid = body.split(" uid=")[1].split(" ")[0]
forged = sign(body.replace(" uid=%s " % uid, " uid=%d " % (int(uid) + 1)).replace(" pid=", " pid=9"))
with open(path, "a") as f:
    f.write(good[: len(good) // 2] + "\n")            # torn: cut short
    f.write(forged + "\n")                            # forged: another user's in this user's file
    f.write(sign("U2 t=1 host=x") + "\n")             # a newer format
    f.write("U1 t=" + "x" * (1 << 20) + "\n")         # 1 MB
PY
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
cp "$db" "$t/newer.db" && sqlite3 "$t/newer.db" 'PRAGMA user_version=2'
before=$(sha256sum <"$t/newer.db")
expect_rc 2 "$CUDNN_COMPAT" usage ingest "$t/spool" --db "$t/newer.db"
has "holds usage records of schema 2, written by a newer cudnn-compat; this one reads schema 1"
expect_rc 2 "$CUDNN_COMPAT" usage report --db "$t/newer.db"
has "schema 2"
[[ $(sha256sum <"$t/newer.db") == "$before" ]] || fail "the newer database was changed"

# A spool owned by another user: refused whole, with what to do.
if [[ $(id -u) == 0 ]] && id nobody >/dev/null 2>&1; then
  cp -r "$t/spool" "$t/theirs" && chown -R nobody "$t/theirs"
  expect_rc 2 "$CUDNN_COMPAT" usage ingest "$t/theirs" --db "$db"
  has "spool $t/theirs is owned by nobody, who could have written any record in it; not ingested"
fi

# A full disk: the database on a small tmpfs of a mount namespace, fed 20,000 more records.
namespace=(unshare --mount --propagation private)
"${namespace[@]}" true 2>/dev/null || namespace=(unshare --user --map-root-user --mount --propagation private)
"${namespace[@]}" true 2>/dev/null || { echo "no mount namespace: the full disk is not tried"; exit 0; }
python3 - "$spool" "$t/many.usage" <<'PY'
import sys
good = open(sys.argv[1]).read().splitlines()[0]
body = good[:good.rindex(" sum=")]
pid = body.split(" pid=")[1].split(" ")[0]
def sign(body):
    h = 2166136261
    for b in body.encode():
        h = ((h ^ b) * 16777619) & 0xffffffff
    return "%s sum=%08x" % (body, h)
with open(sys.argv[2], "w") as f:
    for i in range(20000):
        f.write(sign(body.replace(" pid=%s " % pid, " pid=%d " % (1000000 + i))) + "\n")
PY
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
