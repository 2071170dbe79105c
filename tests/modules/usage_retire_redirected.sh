# Issue 21 re-test, item 1: `retire VERSION --db` lists, besides those who loaded the release,
# those whose loads were redirected away from it (the loader's own choice was VERSION, the shim
# handed over another): their module still names it, so they see its retirement message; labelled.
source "$(dirname "$0")/common.sh"
command -v python3 >/dev/null || skip "no python3"
retiring_release
mkdir "$t/spool"
# Signed as the shim signs them (FNV-1a of what precedes " sum="), for this user in a spool file
# of theirs: one process the shim redirected from 9.0.0 (cudnn/9.0 loaded) to 9.1.0.
python3 - "$t/spool/node7.$(id -u).usage" "$(id -u)" "$(date +%s)" "$FAKES" <<'PY'
import sys
path, uid, now, fakes = sys.argv[1:]
def sign(body):
    h = 2166136261
    for b in body.encode():
        h = ((h ^ b) * 16777619) & 0xFFFFFFFF
    return "%s sum=%08x" % (body, h)
body = ("U1 t=%s host=node7 uid=%s job=42.0 pid=4242 exe=/opt/app/bin/train by=- "
        "asked=libcudnn.so.9 need=9.1 cuda=12 from=env loader=%s/9.0.0/lib64/libcudnn.so.9 "
        "lrel=9.0.0 lsrc=module lmod=cudnn/9.0 got=%s/9.1.0/lib64/libcudnn.so.9 rel=9.1.0 "
        "src=module mod=cudnn/9.1 verdict=redirected mode=record drops=-") % (now, uid, fakes, fakes)
open(path, "w").write(sign(body) + "\n")
PY
expect_rc 0 cc usage ingest "$t/spool" --db "$t/usage.db"
has "1 records added"
user=$(id -un)
expect_rc 0 cc retire 9.0.0 --after 2099-01-31 --db "$t/usage.db" --dry-run
lacks "nobody in the records"
has "  $user: 1 processes, 1 jobs"
has "redirected away from it"
# Those who loaded 9.1.0 are its users, not redirected away from it.
expect_rc 0 cc retire 9.1.0 --after 2099-01-31 --db "$t/usage.db" --dry-run
has "  $user: 1 processes, 1 jobs"
lacks "redirected away"
expect_rc 0 cc --json retire 9.0.0 --after 2099-01-31 --db "$t/usage.db" --dry-run
has '"redirected_away": true'
