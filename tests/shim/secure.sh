# In secure execution (setuid) the shim ignores the caller's environment. ld.so itself drops
# LD_AUDIT/LD_PRELOAD paths with a slash there, so the client loads the shim with dlopen and calls
# its dlopen entry directly: the same router, in a process with AT_SECURE set. With a cuDNN 8
# dispatcher loaded, a sub-library request is a family decision the shim itself reports under
# CUDNN_COMPAT_DEBUG=1 - unless the environment is not to be trusted. Needs root (to make a binary
# setuid to nobody); skipped otherwise.
source "$(dirname "$0")/common.sh"
[[ $(id -u) == 0 ]] || skip "needs root to make a setuid client"
getent passwd nobody >/dev/null || skip "no user nobody"
chmod 755 "$t"
compile client <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <sys/auxv.h>
int main(int argc, char **argv) {
  printf("secure %lu\n", getauxval(AT_SECURE));
  fflush(stdout);
  void *shim = dlopen(argv[1], RTLD_NOW);
  if (!shim || !dlopen(argv[2], RTLD_NOW)) return 2;  /* the shim, then the dispatcher */
  void *(*route_and_load)(const char *, int) = (void *(*)(const char *, int))dlsym(shim, "dlopen");
  route_and_load("libcudnn_ops_infer.so.8", RTLD_NOW);
  return 0;
}
C
cp "$t/client" "$t/client-setuid"
chown nobody "$t/client-setuid"
chmod u+s "$t/client-setuid"
dispatcher=$FAKES/8.9.7/lib64/libcudnn.so.8
export CUDNN_COMPAT_DEBUG=1

expect_rc 0 "$t/client" "$SHIM" "$dispatcher"
has "secure 0"
has "cudnn-compat: libcudnn_ops_infer.so.8 -> $FAKES/8.9.7/lib64/libcudnn_ops_infer.so.8 (the family of $FAKES/8.9.7/lib64)"

# nobody must reach what it loads: a checkout under a private directory (mktemp -d) it cannot.
cp "$SHIM" "$t/libcudnn-compat.so"
cp -a "$FAKES/8.9.7" "$t/fake-8.9.7"
expect_rc 0 "$t/client-setuid" "$t/libcudnn-compat.so" "$t/fake-8.9.7/lib64/libcudnn.so.8"
has "secure 1"
lacks "cudnn-compat"  # CUDNN_COMPAT_DEBUG came from the caller: not taken
