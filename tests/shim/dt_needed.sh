# A program linked against libcudnn.so.5 (DT_NEEDED, no dlopen) is redirected under LD_AUDIT,
# which sees the loader's own searches. LD_PRELOAD cannot see them: docs/shim.md says so, and this
# proves the limit is what it says.
source "$(dirname "$0")/common.sh"
compile linked -L"$FAKES/5.0.5/lib64" -lcudnn <<'C'
#include <stdio.h>
#include <stddef.h>
size_t cudnnGetVersion(void);
int main(void) { printf("cuDNN %zu\n", cudnnGetVersion()); return 0; }
C
fake_map 5.0.5 5.1.10 >"$t/map.toml"
export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 CUDNN_COMPAT_REQUIRE=5.1

expect_rc 0 "$t/linked"
has "cuDNN 5005"
expect_rc 0 audit "$t/linked"
has "cuDNN 5110"
expect_rc 0 preload "$t/linked"
has "cuDNN 5005"
