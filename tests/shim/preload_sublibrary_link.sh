# A program that links a cuDNN sub-library itself (DT_NEEDED libcudnn_ops_infer.so.8, as cuDNN 8's
# inference-only builds do), its RUNPATH at FAKE 8.1.0, needing 8.9: under LD_PRELOAD the loader
# links it unseen and the process keeps 8.1.0, under LD_AUDIT the shim hands over 8.9.7. resolve
# under LD_PRELOAD said nothing of the file kept, and doctor said the program "links no cuDNN
# library" (helper 97).
source "$(dirname "$0")/common.sh"
standin=$(standin_shim)
"$CC" -o "$t/sub8" -x c - -L"$FAKES/8.1.0/lib64" -l:libcudnn_ops_infer.so.8 \
  -Wl,--enable-new-dtags -Wl,-rpath,"$FAKES/8.1.0/lib64" <<'C'
#include <stdio.h>
unsigned long fakecudnn_sublibrary_version(void);
int main(void) { printf("sub-library %lu\n", fakecudnn_sublibrary_version()); return 0; }
C
fake_map 8.1.0 8.9.7 >"$t/map.toml"
export CUDNN_COMPAT_REQUIRE=8.9
expect_rc 0 preload "$t/sub8"
has "sub-library 8100"
expect_rc 0 audit "$t/sub8"
has "sub-library 8907"
# (resolve and doctor judge what ld.so would load: a stand-in keeps the shim out of their own.)
for name in libcudnn_ops_infer.so.8 libcudnn.so.8; do
  LD_PRELOAD=$standin expect_rc 0 "$CUDNN_COMPAT" resolve "$name" --for "$t/sub8"
  has "but the process keeps $FAKES/8.1.0/lib64/$name (cuDNN 8.1.0, from RUNPATH of $t/sub8)"
  has "under LD_PRELOAD the shim does not see $t/sub8's link of libcudnn_ops_infer.so.8"
done
LD_PRELOAD=$standin expect_rc 1 "$CUDNN_COMPAT" doctor --for "$t/sub8"
has "$t/sub8 links libcudnn_ops_infer.so.8"
lacks "links no cuDNN"
