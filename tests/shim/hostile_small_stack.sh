# Issue 9, item 6: a cuDNN load from a thread with a 16 KiB stack (PTHREAD_STACK_MIN) does not crash,
# with the shim deciding, and with CUDNN_COMPAT_DISABLE=1. The landed shim segfaulted in both (its
# frames held several 4 KiB paths); without any shim the same load works.
source "$(dirname "$0")/common.sh"
compile small_stack -pthread <<C
$load5_main
#include <pthread.h>
static void *run(void *arg) { (void)arg; return load5(); }
int main(void) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  if (pthread_attr_setstacksize(&attr, 16384) != 0) return 2;
  pthread_t t;
  if (pthread_create(&t, &attr, run, NULL) != 0) return 2;
  void *lib;
  pthread_join(t, &lib);
  return lib ? 0 : 1;
}
C
tf2016_setting
rc=0
"$t/small_stack" >/dev/null 2>&1 || rc=$?
((rc == 0)) || skip "a 16 KiB thread cannot load cuDNN here even without the shim (exit $rc)"

for mode in audit preload; do
  expect_rc 0 env LD_${mode^^}=$SHIM "$t/small_stack"
  has "$redirected"
  CUDNN_COMPAT_DISABLE=1 expect_rc 0 env LD_${mode^^}=$SHIM "$t/small_stack"
  has "cuDNN 5005"
done

# A host whose stack limit is small but enough for it (ulimit -s 64) does not pass it on to the
# engine, which died of it at start, leaving the load undecided (an outside tester's finding): the
# keeper raises the soft limit as far as the hard one allows, and the engine reads its files
# through no block on its stack (another tester's finding: it died at a hard limit of 64 KiB).
tf2016_client
for mode in audit preload; do
  expect_rc 0 bash -c "ulimit -Ss 64 && exec env LD_${mode^^}=$SHIM $t/tf2016"
  has "$redirected"
  lacks "cudnn-compat:"
  expect_rc 0 bash -c "ulimit -s 64 && exec env LD_${mode^^}=$SHIM $t/tf2016"
  has "$redirected"
  lacks "cudnn-compat:"
done
# An engine that dies of a hard limit too small for it says so in the line. The engine now runs
# in 20 KiB, where ld.so itself crashes now and then mapping any LD_PRELOAD (glibc 2.36, libm.so.6
# too): an engine of our own dies of the 64 KiB limit instead, as the real one did.
own_shim
wrap_ours select <<'EOF2'
[ "$(ulimit -H -s)" = unlimited ] || [ "$(ulimit -H -s)" -ge 256 ] || kill -SEGV $$
EOF2
for mode in audit preload; do
  expect_rc 1 bash -c "ulimit -s 64 && exec env LD_${mode^^}=$SHIM $t/tf2016"  # the misfit, loaded
  has "ended without an answer (this process's stack limit, ulimit -s, is too small for it"
done
