# A site's LD_AUDIT and a user's LD_PRELOAD both naming the shim (two copies in the process): the
# LD_AUDIT copy decides, and the process hears each line and each report once (an outside
# tester's finding: a refusal said twice, the exit report printed twice). Another auditor is no
# reason for the LD_PRELOAD copy to stand down.
source "$(dirname "$0")/common.sh"
twice_client
fake_map 5.0.5 5.1.10 >"$t/map.toml"
export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64
both() { LD_AUDIT=$SHIM LD_PRELOAD=$SHIM "$@"; }

CUDNN_COMPAT_REQUIRE=5.1 CUDNN_COMPAT_DEBUG=1 expect_rc 0 both "$t/twice"
has "cuDNN 5110 same"
count "cudnn-compat: libcudnn.so.5 -> " 1

CUDNN_COMPAT_REQUIRE=5.2 expect_rc 0 both "$t/twice"
has "cuDNN 5005 same"
count "cudnn-compat:" 1
has "no installed cuDNN fits"

CUDNN_COMPAT_REPORT=1 expect_rc 0 both "$t/twice"
count "cudnn-compat: report: next run:" 1

# Two installs of the shim, one per front end: still one copy decides.
cp -a "$(dirname "$SHIM")" "$t/second"
CUDNN_COMPAT_REQUIRE=5.2 LD_AUDIT=$t/second/$(basename "$SHIM") LD_PRELOAD=$SHIM expect_rc 0 "$t/twice"
count "cudnn-compat:" 1

# An auditor of another kind beside the LD_PRELOAD copy: that copy still decides.
"$CC" -shared -fPIC -o "$t/other_auditor.so" -x c - <<'C'
#include <link.h>
unsigned int la_version(unsigned int v) { return v; }
char *la_objsearch(const char *name, uintptr_t *cookie, unsigned int flag) {
  (void)cookie, (void)flag;
  return (char *)name;
}
C
CUDNN_COMPAT_REQUIRE=5.1 LD_AUDIT=$t/other_auditor.so expect_rc 0 preload "$t/twice"
has "cuDNN 5110 same"

# Two copies in one variable (an outside tester's finding): the first decides, one line.
for var in LD_AUDIT LD_PRELOAD; do
  env CUDNN_COMPAT_REQUIRE=5.2 "$var=$SHIM:$t/second/$(basename "$SHIM")" "$t/twice" >"$t/out" 2>&1 ||
    fail "$var with two copies: exit $?"
  out=$(cat "$t/out")
  count "cudnn-compat:" 1
  env CUDNN_COMPAT_REQUIRE=5.1 "$var=$t/second/$(basename "$SHIM"):$SHIM" "$t/twice" >"$t/out" 2>&1
  out=$(cat "$t/out")
  has "cuDNN 5110 same"
  CUDNN_COMPAT_REPORT=1 env "$var=$SHIM:$t/second/$(basename "$SHIM")" "$t/twice" >"$t/out" 2>&1
  out=$(cat "$t/out")
  count "cudnn-compat: report: next run:" 1
done
