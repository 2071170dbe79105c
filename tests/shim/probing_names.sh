# A program that tries several names in turn (libcudnn.so.10, .7, .8, then .9) under a requirement
# of 9.1: the names the loader finds nothing for fail as they would, unsaid. Each was told "the
# requirement should be the cuDNN 10 release the program was built with" (helper 92), though the
# process then loaded a fitting cuDNN 9. With and without the table, both front ends.
source "$(dirname "$0")/common.sh"
compile try <<'C'
#include <dlfcn.h>
#include <stdio.h>
int main(int argc, char **argv) {
  for (int i = 1; i < argc; ++i)
    if (dlopen(argv[i], RTLD_NOW)) {
      printf("loaded %s\n", argv[i]);
      return 0;
    }
  return 1;
}
C
fake_map 8.9.7 9.1.0 >"$t/map.toml"
export LD_LIBRARY_PATH=$FAKES/9.1.0/lib64 CUDNN_COMPAT_REQUIRE=9.1
for table in engine table; do
  [[ $table == table ]] && "$CUDNN_COMPAT" map validate "$t/map.toml" >/dev/null
  for mode in audit preload; do
    expect_rc 0 $mode "$t/try" libcudnn.so.10 libcudnn.so.7 libcudnn.so.8 libcudnn.so.9
    has "loaded libcudnn.so.9"
    count "cudnn-compat:" 0
    # Where the loader does find another major's file, the disagreement is said, once.
    LD_LIBRARY_PATH=$FAKES/8.9.7/lib64:$LD_LIBRARY_PATH expect_rc 0 $mode "$t/try" libcudnn.so.8
    has "loaded libcudnn.so.8"
    count "cudnn-compat:" 1
    has "only a cuDNN 8 can serve, not the 9.1 required"
  done
done
