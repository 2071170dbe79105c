# Issue 21, items 1, 2 and 5: with [usage] mode = "record" and a spool directory, each process
# that loads cuDNN appends exactly one record (not one per dlopen), from the engine's answer and
# from the fast path's table alike, under both front ends; report-only keeps the loader's own
# library and records what would have been handed over, from the map or per job
# (CUDNN_COMPAT_USAGE); records never carry the environment or arguments; off writes nothing.
source "$(dirname "$0")/common.sh"
command -v strace >/dev/null || skip "strace is not installed (scripts/deps.sh installs it)"
twice_client
compile nocudnn <<'C'
int main(void) { return 0; }
C
mkdir "$t/spool"
usage_map() {
  fake_map 5.0.5 5.1.10
  printf '[usage]\nmode = "%s"\nto = "%s"\n' "$1" "$t/spool"
}
export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 CUDNN_COMPAT_REQUIRE=5.1.3 SECRET_WORD=hush-4711
records() { cat "$t"/spool/*.usage 2>/dev/null || true; }

# The engine's path (no table yet), then the fast path (map validate writes the table).
usage_map record >"$t/map.toml"
for mode in AUDIT PRELOAD; do
  out=$(env LD_$mode="$SHIM" "$t/twice" --secret-arg)
  has "cuDNN 5110 same"
done
"$CUDNN_COMPAT" map validate >/dev/null
[[ -s $t/map.toml.decide ]] || fail "map validate wrote no decision table"
for mode in audit preload; do
  started $mode "$t/twice"  # the fast path: no engine ran (CUDNN_COMPAT_DEBUG=1 would ask it)
  has "cuDNN 5110 same"
  [[ $started == 0 ]] || fail "$mode: the table's load started $started processes:"$'\n'"$trace"
done
env LD_AUDIT="$SHIM" "$t/nocudnn"
out=$(records)
count "U1 t=" 4
count " verdict=redirected mode=record " 4
count " lrel=5.0.5 lsrc=module lmod=cudnn/5.0.5 " 4
count " rel=5.1.10 src=module mod=cudnn/5.1.10 " 4
count " need=5.1.3 cuda=- from=env " 4
count "exe=$t/twice " 4
lacks "hush-4711"
lacks "secret-arg"
lacks "nocudnn"
[[ $(stat -c %a "$t"/spool/*.usage) == 600 ]] || fail "the spool file is not the user's alone"

# Report-only: the loader's own library stays; the record says what would have been handed over.
rm -f "$t"/spool/* "$t"/map.toml.*
usage_map report-only >"$t/map.toml"
out=$(env LD_AUDIT="$SHIM" "$t/twice")
has "cuDNN 5005 same"
"$CUDNN_COMPAT" map validate >/dev/null
out=$(env LD_PRELOAD="$SHIM" "$t/twice")
has "cuDNN 5005 same"
out=$(records)
count " rel=5.1.10 src=module mod=cudnn/5.1.10 verdict=redirected mode=report-only " 2

# Per job (the Slurm plugin's word): report-only although the map records.
rm -f "$t"/spool/* "$t"/map.toml.*
usage_map record >"$t/map.toml"
out=$(env LD_AUDIT="$SHIM" CUDNN_COMPAT_USAGE=report-only CUDNN_COMPAT_JOB=77.3 "$t/twice")
has "cuDNN 5005 same"
out=$(records)
count " job=77.3 " 1
count " mode=report-only " 1

# Off: nothing new at all.
rm -f "$t"/spool/* "$t"/map.toml.*
usage_map off >"$t/map.toml"
out=$(env LD_AUDIT="$SHIM" "$t/twice")
has "cuDNN 5110 same"
[[ -z $(ls "$t/spool") ]] || fail "mode = off wrote $(ls "$t/spool")"

# Per job with the site's records off (the map says off, or has no [usage]): the job's word still
# keeps the loader's library and records what would have been handed over, to the map's place, else
# to syslog - from the engine's answer and the fast path's table alike.
for form in off none; do
  rm -f "$t"/spool/* "$t"/map.toml.*
  if [[ $form == off ]]; then usage_map off >"$t/map.toml"; else fake_map 5.0.5 5.1.10 >"$t/map.toml"; fi
  for table in engine table; do
    [[ $table == table ]] && "$CUDNN_COMPAT" map validate >/dev/null
    out=$(env LD_AUDIT="$SHIM" CUDNN_COMPAT_USAGE=report-only CUDNN_COMPAT_LOG="$t/log" "$t/twice")
    has "cuDNN 5005 same"
  done
  out=$(records)
  if [[ $form == off ]]; then
    count " rel=5.1.10 src=module mod=cudnn/5.1.10 verdict=redirected mode=report-only " 2
  else
    [[ -z $(ls "$t/spool") ]] || fail "no [usage]: a record in the spool, not syslog's"
  fi
done
