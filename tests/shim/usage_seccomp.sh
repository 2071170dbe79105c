# Issue 21 and "never break the host": a host under a seccomp filter that kills at the system calls
# a record needs and the process itself never makes (socket: systemd's ~@network-io; uname;
# readlink; prctl, which could ask about the filter) lives with records on as with them
# off: no record, the drop counted. Before, records to syslog or a spool killed it at its first
# cuDNN load (SIGSYS), and then the prctl that asked about the filter did (outside testers).
source "$(dirname "$0")/common.sh"
compile filtered_host -I"$(dirname "$0")/.." <<'C'
#include <dlfcn.h>
#include <stdio.h>
#include "seccomp_filters.h"
int main(void) {
  const unsigned calls[] = {SYS_socket, SYS_uname, SYS_readlinkat, SYS_readlink, SYS_prctl};
  if (!kill_calls(calls, 5)) return 2;
  void *lib = dlopen("libcudnn.so.5", RTLD_NOW);
  size_t (*version)(void) = lib ? (size_t (*)(void))dlsym(lib, "cudnnGetVersion") : 0;
  printf("cuDNN %zu\n", version ? version() : 0);
  return 0;
}
C
mkdir -m 1733 "$t/spool"
export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 CUDNN_COMPAT_REQUIRE=5.1.3
drops=/var/tmp/cudnn-compat-usage-dropped.$(id -u)
dropped() { stat -c %s "$drops" 2>/dev/null || echo 0; }
for to in syslog "$t/spool"; do
  { fake_map 5.0.5 5.1.10; printf '[usage]\nmode = "record"\nto = "%s"\n' "$to"; } >"$t/map.toml"
  for table in no yes; do
    [[ $table == no ]] || "$CUDNN_COMPAT" map validate >/dev/null
    for mode in audit preload; do
      before=$(dropped)
      expect_rc 0 $mode "$t/filtered_host"
      # Without the table the engine is not started under a filter: the loader's own, said, and
      # no [usage] read to record by.
      [[ $table == no ]] && { has "cuDNN 5005"; continue; }
      has "cuDNN 5110"
      (($(dropped) > before)) || fail "$mode, to $to: the record was not counted as dropped"
    done
  done
done
[[ -z $(ls "$t/spool") ]] || fail "a record was written under the filter"
