# Issue 9, item 3: the engine and its probes inherit nothing of the host's but what they need: not
# its stdin, not a file it opened without O_CLOEXEC. The real engine and probe run here behind
# wrappers that list their fds before going on. The landed shim passed every such fd on.
source "$(dirname "$0")/common.sh"
compile inherit <<C
$load5_main
#include <fcntl.h>
int main(int argc, char **argv) {
  if (argc < 2 || open(argv[1], O_RDONLY) < 0) return 2;  /* no O_CLOEXEC: a host's ordinary fd */
  return load5() ? 0 : 1;
}
C
own_shim
for program in cudnn-compat-select cudnn-compat-probe; do
  mv "$t/lib/$program" "$t/lib/$program.real"
  printf '#!/bin/sh\nls -l /proc/$$/fd/ >"$0.fds.$$"\nexec "$0.real" "$@"\n' >"$t/lib/$program"
  chmod +x "$t/lib/$program"
done
tf2016_setting
echo secret >"$t/host-secret"
echo input >"$t/host-stdin"

for mode in audit preload; do
  rm -f "$t"/lib/*.fds.*
  out=$(env LD_${mode^^}=$SHIM "$t/inherit" "$t/host-secret" <"$t/host-stdin" 2>&1) || fail "$mode: $out"
  has "$redirected"
  ls "$t"/lib/cudnn-compat-select.fds.* >/dev/null 2>&1 || fail "$mode: the engine never ran"
  ls "$t"/lib/cudnn-compat-probe.fds.* >/dev/null 2>&1 || fail "$mode: no probe ran"
  out=$(grep -H . "$t"/lib/*.fds.*)
  lacks "host-secret"
  lacks "host-stdin"
done
