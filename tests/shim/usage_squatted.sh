# Issue 21, one user against another's records. A spool file named for one user and owned by
# another (made first in the shared 1733 spool) is not where that user's records go: each process
# writes a file of its own instead (HOST.UID~PID-NSEC.usage, made anew: a process that execs
# another image that loads cuDNN records twice under one pid), and ingest reads none of the
# squatter's file and says so, exiting 2, also when the file is named alone. A drop counter planted
# at another user's name is no count of theirs: the record carries none of its size. Before, the
# victim's records were dropped, the squatted file read without a word and the planted count
# reported (an outside tester's findings).
source "$(dirname "$0")/common.sh"
command -v sqlite3 >/dev/null || skip "no sqlite3 (scripts/deps.sh installs it)"
[[ $(id -u) == 0 ]] || skip "acting as two users takes root"
id nobody >/dev/null 2>&1 || skip "no user nobody"
command -v setpriv >/dev/null || skip "no setpriv (util-linux)"
usage_spool
chmod 1733 "$t/spool"
host=$(basename "$spool" | cut -d. -f1)
squat=$t/spool/$host.4711.usage
touch "$squat" && chown nobody "$squat"
db=$t/usage.db
expect_rc 2 "$CUDNN_COMPAT" usage ingest "$t/spool" --db "$db"
has "usage ingest: $squat is owned by nobody, not by uid 4711 whose records its name is for: uid 4711's records on $host cannot be written there (the shim writes only a file of its own: each of their processes writes HOST.UID~PID-N.usage instead, which is read); not ingested (rm $squat)"
has "$spool: 3 lines: 3 records added"
expect_rc 2 "$CUDNN_COMPAT" usage ingest "$squat" --db "$db"
has "$squat is owned by nobody, not by uid 4711"

# The counter: another's file at nobody's name, with a size to pass for a count.
planted=/var/tmp/cudnn-compat-usage-dropped.$(id -u nobody)
[[ ! -e $planted ]] || skip "$planted exists already"
trap 'rm -f "$planted"; rm -rf "$t" "$node_of_scenario"' EXIT
truncate -s 5000000 "$planted" && chmod 666 "$planted"
squat=$t/spool/$host.$(id -u nobody).usage
touch "$squat"
"$CUDNN_COMPAT" map validate "$t/map.toml" >/dev/null
compile exec_again <<'C'
#include <dlfcn.h>
#include <unistd.h>
int main(int argc, char **argv) {
  if (!dlopen("libcudnn.so.5", RTLD_NOW)) return 1;
  if (argc == 1) execl(argv[0], argv[0], "again", (char *)0);
  return 0;
}
C
chmod 755 "$t"
for mode in AUDIT PRELOAD; do
  setpriv --reuid=nobody --regid=nogroup --clear-groups env LD_$mode="$SHIM" CUDNN_COMPAT_MAP="$t/map.toml" \
    LD_LIBRARY_PATH="$FAKES/5.0.5/lib64" CUDNN_COMPAT_REQUIRE=5.1.3 "$t/tf2016" >/dev/null 2>&1 || true
done
setpriv --reuid=nobody --regid=nogroup --clear-groups env LD_AUDIT="$SHIM" CUDNN_COMPAT_MAP="$t/map.toml" \
  LD_LIBRARY_PATH="$FAKES/5.0.5/lib64" CUDNN_COMPAT_REQUIRE=5.1.3 "$t/exec_again" || fail "exec_again failed"
theirs=("$t/spool/$host.$(id -u nobody)~"*.usage)
[[ ${#theirs[@]} == 4 ]] || fail "not four files of nobody's own: $(ls "$t/spool")"
out=$(cat "${theirs[@]}")
count "verdict=redirected" 4
lacks "drops=5000000"
expect_rc 2 "$CUDNN_COMPAT" usage ingest "$t/spool" --db "$db"
has "$squat is owned by root, not by nobody"
[[ $(sqlite3 "$db" "select count(*) from records where uid = $(id -u nobody)") == 4 ]] ||
  fail "nobody's four records were not ingested"
