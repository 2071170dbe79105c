#!/usr/bin/env bash
# Issue 21 as deployed: installed, moved, no CUDNN_COMPAT_* set. The moved map turns records on
# into a spool; each process that loads cuDNN (a [[require]] rule's program, the loader's FAKE
# 5.0.5 first) appends one record under LD_AUDIT and LD_PRELOAD, from the engine's answer and then
# from the table; the moved tool ingests them, reports the release handed over and what it was
# instead of, and retires it naming a replacement with the moved map's modules.
. "$(dirname "$0")/common.sh"
install_to "$t/first"
mv "$t/first" "$t/moved"
p=$t/moved
mkdir "$t/spool"
{
  site_map
  printf '[usage]\nmode = "record"\nto = "%s"\n' "$t/spool"
} >"$p/etc/cudnn-compat/map.toml"
tf2016_client
run_all() {
  for mode in AUDIT PRELOAD; do
    out=$(env LD_LIBRARY_PATH="$FAKES/5.0.5/lib64" LD_$mode="$p/lib/cudnn-compat/libcudnn-compat.so" \
      "$t/apps/tf2016" 2>&1)
    has "cuDNN 5110 from $FAKES/5.1.10/lib64/libcudnn.so.5"
  done
}
run_all                                              # the engine decides (no table yet)
expect_rc 0 "$p/bin/cudnn-compat" map validate       # writes the table
run_all                                              # the table decides
out=$(cat "$t"/spool/*.usage)
count "U1 t=" 4
count " need=5.1 cuda=- from=rule " 4
count " lrel=5.0.5 lsrc=module lmod=cudnn/5.0 got=$FAKES/5.1.10/lib64/libcudnn.so.5 rel=5.1.10 src=module mod=cudnn/5.1 verdict=redirected " 4

expect_rc 0 "$p/bin/cudnn-compat" usage ingest "$t/spool" --db "$t/usage.db"
out=$("$p/bin/cudnn-compat" --json usage report --db "$t/usage.db")
python3 - "$out" "$(id -un)" <<'PY' || fail "usage report --json:"$'\n'"$out"
import json, sys
rows = {r["release"]: r for r in json.loads(sys.argv[1])["rows"]}
assert rows["5.1.10"]["processes"] == 4, rows
assert rows["5.1.10"]["instead_of"] == [{"release": "5.0.5", "processes": 4}], rows
assert rows["5.1.10"]["user_list"] == [sys.argv[2]], rows
PY
out=$("$p/bin/cudnn-compat" retire 5.0.5 --after 2030-01-01 --db "$t/usage.db" 2>&1)
has "cudnn/5.0"
has "module-forbid --after 2030-01-01"
