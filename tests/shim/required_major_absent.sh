# A requirement of a major no release here has (6.0 where the map lists 5.x and the loader finds
# no libcudnn.so.6): the load of libcudnn.so.6 failed in silence, the framework's own "cannot open
# shared object file" the only word. It now keeps the failing load with one line that names the
# need and the releases installed, as resolve does. With no requirement, a name of an absent major
# stays unsaid (frameworks try several names in turn).
source "$(dirname "$0")/common.sh"
deployed
family_client
fake_map 5.0.5 5.1.10 >"$map"
for table in engine table; do
  [[ $table == table ]] && expect_rc 0 "$CUDNN_COMPAT" map validate
  expect_rc 1 "$CUDNN_COMPAT" resolve libcudnn.so.6 --require 6.0
  has "no installed cuDNN fits cuDNN 6.0"
  for front in AUDIT PRELOAD; do
    expect_rc 1 env CUDNN_COMPAT_REQUIRE=6.0 "LD_$front=$SHIM" "$t/family" libcudnn.so.6
    has "cudnn-compat: libcudnn.so.6: needs 6.0 from CUDNN_COMPAT_REQUIRE, but the loader finds no libcudnn.so.6; no installed cuDNN fits (installed: 5.0.5 (cudnn/5.0.5), 5.1.10"
    has "Ask the admins for cuDNN 6.0.x"
    count "cudnn-compat:" 1
    expect_rc 1 env "LD_$front=$SHIM" "$t/family" libcudnn.so.6
    count "cudnn-compat:" 0
  done
done

# A bare libcudnn.so decided as libcudnn.so.6: the line says what was asked and what that loads
# (helper 93: the two loads said one identical line, the bare one's cuDNN 9 unsaid). Under
# LD_PRELOAD the family decided for libcudnn.so.6 answers the second request without a decision.
compile two <<'C'
#include <dlfcn.h>
#include <stdio.h>
int main(void) {
  printf("%s\n", dlopen("libcudnn.so", RTLD_NOW) ? "bare loaded" : "bare not found");
  printf("%s\n", dlopen("libcudnn.so.6", RTLD_NOW) ? "six loaded" : "six not found");
  return 0;
}
C
CUDNN_COMPAT_REQUIRE=6.0 expect_rc 0 audit "$t/two"
has "six not found"
has "loading as usual. Ask the admins for cuDNN 6.0.x (asked for libcudnn.so"
count "cudnn-compat:" 2
