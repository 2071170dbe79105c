# A seccomp filter that answers faccessat2 or statfs with EPERM or ENOSYS (older container
# profiles deny system calls they do not know with EPERM) changes nothing about the file the table
# hands over: the table's redirect holds. Once, the shim asked those calls whether the file was
# loadable, and took a denial as "no" and loaded the misfit (an outside tester's finding); it now
# opens the file and maps it executable, as ld.so does.
source "$(dirname "$0")/common.sh"
compile denied -I"$(dirname "$0")/.." <<C
$load5_main
#include "seccomp_filters.h"
#include <stdlib.h>
int main(int argc, char **argv) {
  if (argc != 3) return 2;
  struct sock_filter deny_one[] = {
      BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
      BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)atoi(argv[1]), 0, 1),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (unsigned)atoi(argv[2])),
      BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
  };
  if (!filtered(deny_one, sizeof deny_one / sizeof *deny_one)) return 2;
  return load5() ? 0 : 1;
}
C
tf2016_setting
expect_rc 0 "$CUDNN_COMPAT" map validate "$t/map.toml"
# faccessat2 is 439 and statfs 137 on x86_64; EPERM is 1, ENOSYS 38.
for mode in audit preload; do
  for denied in "439 1" "439 38" "137 1" "137 38"; do
    expect_rc 0 env LD_${mode^^}=$SHIM "$t/denied" $denied
    has "$redirected"
    lacks "cudnn-compat:"
  done
done
