"""Writes the .dist-info directory of an installed distribution as pip leaves it (no package index
here): METADATA (core metadata headers), WHEEL, INSTALLER, top_level.txt and RECORD, whose rows
are path,sha256=<urlsafe base64 without padding>,size for every file the wheel put under
site-packages, and the RECORD itself without hash or size.

    dist_info.py SITE NAME VERSION [--requires REQ]... [--top NAME]... FILE...

FILE paths are relative to SITE and must exist.
"""
import argparse
import base64
import csv
import hashlib
import os
import re

parser = argparse.ArgumentParser()
parser.add_argument("site")
parser.add_argument("name")
parser.add_argument("version")
parser.add_argument("--requires", action="append", default=[])
parser.add_argument("--top", action="append", default=[])
parser.add_argument("files", nargs="*")
args = parser.parse_intermixed_args()

# The directory name: the name normalized with '_' for runs of '-_.', then the version.
stem = re.sub(r"[-_.]+", "_", args.name).lower() + "-" + args.version
info = os.path.join(args.site, stem + ".dist-info")
os.makedirs(info, exist_ok=True)


def write(name, text):
    with open(os.path.join(info, name), "w") as f:
        f.write(text)


headers = ["Metadata-Version: 2.1", "Name: " + args.name, "Version: " + args.version,
           "Summary: a FAKE distribution built by cudnn-compat's tests"]
headers += ["Requires-Dist: " + r for r in args.requires]
write("METADATA", "\n".join(headers) + "\n\nNot NVIDIA's or any framework's code.\n")
write("WHEEL", "Wheel-Version: 1.0\nGenerator: cudnn-compat tests\nRoot-Is-Purelib: false\n"
      "Tag: py3-none-manylinux_2_27_x86_64\n")
write("INSTALLER", "pip\n")
if args.top:
    write("top_level.txt", "\n".join(args.top) + "\n")

rows = []
for rel in args.files + [os.path.join(stem + ".dist-info", n)
                         for n in ("METADATA", "WHEEL", "INSTALLER", "top_level.txt")]:
    path = os.path.join(args.site, rel)
    if not os.path.exists(path):
        continue
    data = open(path, "rb").read()
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    rows.append([rel, "sha256=" + digest, str(len(data))])
rows.append([os.path.join(stem + ".dist-info", "RECORD"), "", ""])
with open(os.path.join(info, "RECORD"), "w", newline="") as f:
    csv.writer(f, lineterminator="\n").writerows(rows)
