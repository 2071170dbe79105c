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
#include <unistd.h>
/* denied NR ERRNO [CMD...]: the call NR answered with ERRNO, then loads libcudnn.so.5, or runs CMD. */
int main(int argc, char **argv) {
  if (argc < 3 || !deny_call((unsigned)atoi(argv[1]), (unsigned)atoi(argv[2]))) return 2;
  if (argc > 3) return execv(argv[3], argv + 3), 127;
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

# Under a filter on a node no process has learnt yet (no node file: the first job after boot, or
# a container with its own /tmp), the table whose rows need the node's driver cannot decide and the
# engine is not started: the line says what gives the table the facts, and with them it redirects
# (an outside tester: only "could not check", never a redirect).
family_client
fake_map 9.0.0 9.1.0 >"$t/map9.toml"
expect_rc 0 "$CUDNN_COMPAT" map validate "$t/map9.toml"
rm -f "$node_of_scenario"
for mode in audit preload; do
  CUDNN_COMPAT_MAP=$t/map9.toml LD_LIBRARY_PATH=$FAKES/9.0.0/lib64 CUDNN_COMPAT_REQUIRE=9.1 \
    expect_rc 0 env LD_${mode^^}=$SHIM "$t/denied" 246 1 "$t/family" libcudnn.so.9
  has "loaded $FAKES/9.0.0/lib64/libcudnn.so.9"
  has "give them to the job as CUDNN_COMPAT_GPU_ARCH=X.Y and CUDNN_COMPAT_DRIVER_CUDA=X.Y"
  CUDNN_COMPAT_MAP=$t/map9.toml LD_LIBRARY_PATH=$FAKES/9.0.0/lib64 CUDNN_COMPAT_REQUIRE=9.1 \
    CUDNN_COMPAT_GPU_ARCH=8.0 CUDNN_COMPAT_DRIVER_CUDA=12.4 \
    expect_rc 0 env LD_${mode^^}=$SHIM "$t/denied" 246 1 "$t/family" libcudnn.so.9
  has "loaded $FAKES/9.1.0/lib64/libcudnn.so.9"
  lacks "cudnn-compat:"
done
