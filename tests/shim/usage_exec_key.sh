# Issue 21 re-test, item 7: a process that loads cuDNN and then execs another program that loads
# it again leaves two records under one pid, often within the same second; ingest keeps both (the
# key holds what tells them apart), and ingesting the same file again still adds nothing.
source "$(dirname "$0")/common.sh"
compile load_then_exec <<'C'
#include <dlfcn.h>
#include <stdio.h>
#include <unistd.h>
int main(int argc, char **argv) {
  if (!dlopen("libcudnn.so.5", RTLD_NOW)) return 1;
  if (argc > 1) execv(argv[1], argv + 1);  /* the same pid, another image */
  return 0;
}
C
cp "$t/load_then_exec" "$t/second"
mkdir "$t/spool"
fake_map 5.0.5 5.1.10 >"$t/map.toml"
printf '[usage]\nmode = "record"\nto = "%s"\n' "$t/spool" >>"$t/map.toml"
for mode in AUDIT PRELOAD; do
  LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 CUDNN_COMPAT_REQUIRE=5.1 env "LD_$mode=$SHIM" \
    "$t/load_then_exec" "$t/second" || fail "$mode: the programs failed"
  # A program that execs itself: the same pid and the same exe.
  LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 CUDNN_COMPAT_REQUIRE=5.1 env "LD_$mode=$SHIM" \
    "$t/second" "$t/second" || fail "$mode: the programs failed"
done
out=$(cat "$t"/spool/*.usage)
count "U1 t=" 8
db=$t/usage.db
expect_rc 0 "$CUDNN_COMPAT" usage ingest "$t/spool" --db "$db"
has "8 lines: 8 records added, 0 already in the database"
rm "$db"  # a fresh database, the same file twice: the second adds nothing
expect_rc 0 "$CUDNN_COMPAT" usage ingest "$t/spool" "$t/spool" --db "$db"
has "8 records added"
has "0 records added"
