# Issue 9: the engine starts with default signal dispositions and nothing blocked, whatever the
# host set: a host that ignores SIGCHLD would otherwise have the engine reaped behind the keeper's
# back (and its process group id free for reuse before the keeper ends the group), and an ignored
# or blocked signal would pass on through execve to every process of ours. The real engine and
# probe run behind wrappers that record their signal state before going on.
source "$(dirname "$0")/common.sh"
compile signals <<C
$load5_main
#include <signal.h>
int main(void) {
  signal(SIGCHLD, SIG_IGN);
  signal(SIGUSR1, SIG_IGN);
  sigset_t block;
  sigemptyset(&block);
  sigaddset(&block, SIGTERM);
  sigprocmask(SIG_BLOCK, &block, 0);
  return load5() ? 0 : 1;
}
C
own_shim
for program in cudnn-compat-select cudnn-compat-probe; do
  mv "$t/lib/$program" "$t/lib/$program.real"
  # Read with the shell's builtins: a child of the shell would see the shell's mask while it forks.
  printf '#!/bin/sh\nwhile read -r k v; do case $k in Sig[BI][lg][kn]:) echo "$k $v";; esac
done </proc/$$/status >"$0.sig.$$"\nexec "$0.real" "$@"\n' >"$t/lib/$program"
  chmod +x "$t/lib/$program"
done
tf2016_setting

for mode in audit preload; do
  rm -f "$t"/lib/*.sig.*
  out=$(env LD_${mode^^}=$SHIM "$t/signals" 2>&1) || fail "$mode: $out"
  has "$redirected"
  ls "$t"/lib/cudnn-compat-select.sig.* >/dev/null 2>&1 || fail "$mode: the engine never ran"
  ls "$t"/lib/cudnn-compat-probe.sig.* >/dev/null 2>&1 || fail "$mode: no probe ran"
  out=$(grep -H . "$t"/lib/*.sig.*)
  count "Sig" $(($(ls "$t"/lib/*.sig.* | wc -l) * 2))
  ! grep -E "SigBlk: 0*[1-9a-f]" <<<"$out" || fail "$mode: a signal blocked"
  # glibc's posix_spawn, which the engine starts its probes with, ignores glibc's own two signals
  # (32 and 33: SIGCANCEL, SIGSETXID) in its child, and glibc in the probe takes them back; the
  # engine itself, started by the shim, has none ignored.
  ! grep -E "SigIgn: 0*[1-9a-f]" <<<"$out" |
    grep -vE "/cudnn-compat-probe\.sig\.[0-9]+:SigIgn: 0000000180000000$" ||
    fail "$mode: a signal ignored"
done
