"""Records for the usage tests, made from one the real shim wrote: signed as the shim signs them
(" sum=" and FNV-1a of what precedes it, written out here so that the test does not check the
shim's code with itself).

  usage_records.py bad SPOOL_FILE          appends a torn, a forged, a newer and a 1 MB line
  usage_records.py many SPOOL_FILE OUT N   writes N copies of its first record, each another pid
  usage_records.py escapes SPOOL_FILE      appends a record whose rel and need hold a terminal's
                                           escapes (ESC ] title BEL, ESC [2J, CR LF), encoded
"""
import sys


def sign(body):
    h = 2166136261
    for b in body.encode():
        h = ((h ^ b) * 16777619) & 0xFFFFFFFF
    return "%s sum=%08x" % (body, h)


def first_body(path):
    good = open(path).read().splitlines()[0]
    return good, good[: good.rindex(" sum=")]


def field(body, key):
    return body.split(" %s=" % key)[1].split(" ")[0]


def bad(path):
    good, body = first_body(path)
    uid = field(body, "uid")
    forged = sign(body.replace(" uid=%s " % uid, " uid=%d " % (int(uid) + 1)).replace(" pid=", " pid=9"))
    with open(path, "a") as f:
        f.write(good[: len(good) // 2] + "\n")  # torn: cut short
        f.write(forged + "\n")  # forged: another user's in this user's file
        f.write(sign("U2 t=1 host=x") + "\n")  # a newer format
        f.write("U1 t=" + "x" * (1 << 20) + "\n")  # 1 MB


def many(path, out, n):
    _, body = first_body(path)
    pid = field(body, "pid")
    with open(out, "w") as f:
        for i in range(n):
            f.write(sign(body.replace(" pid=%s " % pid, " pid=%d " % (1000000 + i))) + "\n")


def escapes(path):
    _, body = first_body(path)
    pid, rel, need = field(body, "pid"), field(body, "rel"), field(body, "need")
    body = body.replace(" pid=%s " % pid, " pid=77%s " % pid)
    body = body.replace(" rel=%s " % rel, " rel=9.3.0%1b]0;owned%07%1b[2J ")
    body = body.replace(" need=%s " % need, " need=5.1%0d%0a9.9.9 ")
    with open(path, "a") as f:
        f.write(sign(body) + "\n")


if sys.argv[1] == "bad":
    bad(sys.argv[2])
elif sys.argv[1] == "escapes":
    escapes(sys.argv[2])
else:
    many(sys.argv[2], sys.argv[3], int(sys.argv[4]))
