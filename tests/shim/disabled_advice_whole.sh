# CUDNN_COMPAT_DISABLE=1 beside a shim that cannot see the load (LD_PRELOAD, a program that links
# libcudnn.so.8) or no shim at all: resolve advised LD_AUDIT and left the switch set, doctor
# advised lifting the switch and left LD_PRELOAD; each followed kept the process on FAKE 8.1.0
# (helper 99). The one command they now give, followed, hands over 8.9.7.
source "$(dirname "$0")/common.sh"
standin=$(standin_shim)
compile app -L"$FAKES/8.1.0/lib64" -l:libcudnn.so.8 -Wl,--enable-new-dtags \
  -Wl,-rpath,"$FAKES/8.1.0/lib64" <<'C'
#include <stdio.h>
unsigned long cudnnGetVersion(void);
int main(void) { printf("cuDNN %lu\n", cudnnGetVersion()); return 0; }
C
fake_map 8.1.0 8.9.7 >"$t/map.toml"
export CUDNN_COMPAT_REQUIRE=8.9
whole="unset CUDNN_COMPAT_DISABLE; export LD_AUDIT=\$(cudnn-compat shim-path); unset LD_PRELOAD"
for shim in "LD_PRELOAD=$standin" ""; do
  expect_rc 0 env $shim CUDNN_COMPAT_DISABLE=1 "$CUDNN_COMPAT" resolve libcudnn.so.8 --for "$t/app"
  has "to get it: unset CUDNN_COMPAT_DISABLE; export LD_AUDIT=\$(cudnn-compat shim-path)"
  expect_rc 1 env $shim CUDNN_COMPAT_DISABLE=1 "$CUDNN_COMPAT" doctor --for "$t/app"
  has "fix: unset CUDNN_COMPAT_DISABLE; export LD_AUDIT=\$(cudnn-compat shim-path)"
done
has "# picks a fitting release"
LD_PRELOAD=$standin CUDNN_COMPAT_DISABLE=1 expect_rc 0 "$CUDNN_COMPAT" resolve libcudnn.so.8 \
  --for "$t/app"
has "to get it: $whole"
# Each half alone, then the whole, in the process itself.
expect_rc 0 env LD_AUDIT="$SHIM" CUDNN_COMPAT_DISABLE=1 "$t/app"
has "cuDNN 8100"
expect_rc 0 preload "$t/app"
has "cuDNN 8100"
expect_rc 0 audit "$t/app"
has "cuDNN 8907"
