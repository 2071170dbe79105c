# Issue 21 and "never break the host": a host under a seccomp filter that kills at the system calls
# a record needs and the process itself never makes (socket: systemd's ~@network-io; uname;
# readlink; getuid; prctl, which could ask about the filter) lives with records on as with them
# off. Before, records to syslog or a spool killed it at its first cuDNN load (SIGSYS), and then
# the prctl that asked about the filter did (outside testers). To syslog no record is sent, the
# drop counted; to a spool directory the record is written all the same: its fields come from
# the loader's own calls (open, read, close, stat, write: the node's name from /proc, the uid from
# what the kernel handed the program, the program from /proc/self/maps), which no filter that lets
# a process load a library kills. Before, that record was dropped under any filter.
source "$(dirname "$0")/common.sh"
compile filtered_host -I"$(dirname "$0")/.." <<'C'
#include <dlfcn.h>
#include <stdio.h>
#include "seccomp_filters.h"
/* filtered_host [getuid]: getuid killed too (the table's path asks it for nothing but a record;
   the engine's path asked it for the memo first, records or not, until the start's ids told it:
   an outside tester's finding). */
int main(int argc, char **argv) {
  const unsigned calls[] = {SYS_socket, SYS_uname,  SYS_readlinkat,
                            SYS_readlink, SYS_prctl, SYS_getuid};
  if (!kill_calls(calls, argc > 1 && argv[1][0] == 'g' ? 6 : 5)) return 2;
  void *lib = dlopen("libcudnn.so.5", RTLD_NOW);
  size_t (*version)(void) = lib ? (size_t (*)(void))dlsym(lib, "cudnnGetVersion") : 0;
  printf("cuDNN %zu\n", version ? version() : 0);
  return 0;
}
C
mkdir -m 1733 "$t/spool"
# The user's spool file on this node, as an earlier record of theirs made it: under a filter the
# shim makes no file (a sandbox may kill the host for O_CREAT: tests/shim/usage_no_files.sh).
(umask 077 && : >"$t/spool/$(uname -n).$(id -u).usage")
export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 CUDNN_COMPAT_REQUIRE=5.1.3
drops=/var/tmp/cudnn-compat-usage-dropped.$(id -u)
dropped() { stat -c %s "$drops" 2>/dev/null || echo 0; }
for to in syslog "$t/spool"; do
  { fake_map 5.0.5 5.1.10; printf '[usage]\nmode = "record"\nto = "%s"\n' "$to"; } >"$t/map.toml"
  for table in no yes; do
    [[ $table == no ]] || "$CUDNN_COMPAT" map validate >/dev/null
    for mode in audit preload; do
      before=$(dropped)
      expect_rc 0 $mode "$t/filtered_host" getuid
      # Without the table the engine is not started under a filter: the loader's own, said, and
      # no [usage] read to record by.
      [[ $table == no ]] && { has "cuDNN 5005"; continue; }
      has "cuDNN 5110"
      # To the spool the record is written: the file's lines below say so (the drop file is
      # every scenario's of this user, so no count of it can say that nothing was dropped).
      [[ $to == syslog ]] || continue
      (($(dropped) > before)) || fail "$mode, to $to: the record was not counted as dropped"
    done
  done
done
# Where /proc says nothing (an empty /proc), the filter is not asked with prctl, which it kills
# (an outside tester's host died: SIGSYS): no record, the host alive.
fake_map 5.0.5 5.1.10 >"$t/map.toml"
printf '[usage]\nmode = "record"\nto = "%s"\n' "$t/spool" >>"$t/map.toml"
"$CUDNN_COMPAT" map validate >/dev/null
for mode in audit preload; do
  expect_rc 0 without_proc env LD_LIBRARY_PATH="$LD_LIBRARY_PATH" CUDNN_COMPAT_REQUIRE=5.1.3 \
    CUDNN_COMPAT_MAP="$CUDNN_COMPAT_MAP" $([[ $mode == audit ]] && echo LD_AUDIT || echo LD_PRELOAD)="$SHIM" \
    "$t/filtered_host" getuid
  has "cuDNN 5110"
done
# The spool holds the two table runs' records, one each, with the fields an unfiltered process
# gives them, in the user's own file (there before them); ingest takes both (none torn, none forged).
out=$(cat "$t"/spool/* 2>/dev/null || true)
count "U1 t=" 2
count " host=$(uname -n) uid=$(id -u) " 2
count " exe=$(readlink -f "$t/filtered_host") by=- asked=libcudnn.so.5 " 2
count " verdict=redirected mode=record " 2
[[ $(ls "$t/spool") == "$(uname -n).$(id -u).usage" ]] ||
  fail "the records went elsewhere: $(ls "$t/spool")"
expect_rc 0 "$CUDNN_COMPAT" usage ingest "$t/spool" --db "$t/usage.db"
has "2 records added"
has "skipped 0 torn, 0 forged"
