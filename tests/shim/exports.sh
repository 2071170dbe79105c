# The shim exports the audit and dlopen entry points and nothing else, and needs no library at
# all (only weak references, which stay null where libc is absent), so no host can collide with it.
source "$(dirname "$0")/common.sh"
defined=$(nm -D --defined-only "$SHIM" | awk '{print $3}' | sort | tr '\n' ' ')
[[ $defined == "dlopen la_objopen la_objsearch la_version " ]] || fail "exports: $defined"
strong=$(nm -D --undefined-only "$SHIM" | awk '$1 != "w"' | tr '\n' ' ')
[[ -z $strong ]] || fail "needs symbols: $strong"
needed=$(readelf -d "$SHIM" | grep NEEDED || true)
[[ -z $needed ]] || fail "has DT_NEEDED: $needed"

# A host defining the shim's internal names is unaffected.
compile host <<'C'
#include <stdio.h>
int route(void) { return 1; }
int lock(void) { return 2; }
int parse_cudnn_name(void) { return 3; }
int main(void) { printf("host %d\n", route() + lock() + parse_cudnn_name()); return 0; }
C
for mode in audit preload; do
  expect_rc 0 $mode "$t/host"
  has "host 6"
done
