# A dispatcher load that maps nothing settles nothing (an outside tester's findings): a path that
# fails - not ELF, a directory, a dependency missing (mapped, then unloaded) - or an RTLD_NOLOAD
# query by path, then the program's next load: that load is decided as if the first had not been
# (it was handed the failed path, or that query's release, for the rest of the process). And a
# dispatcher of another release in a namespace of its own (dlmopen) keeps its own sub-libraries.
source "$(dirname "$0")/common.sh"
compile loads <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
/* Each argument: [n:|m:]NAME - a query (RTLD_NOLOAD), a load into a new namespace, or a load;
 * a handle's version and cudnnCreate's status. e:VAR=VALUE sets a variable; x: closes every
 * handle so far; o:NAME opens without a handle. */
int main(int argc, char **argv) {
  void *open[64];
  int opened = 0;
  for (int i = 1; i < argc; ++i) {
    const char *name = argv[i] + (argv[i][1] == ':' ? 2 : 0);
    if (!strncmp(argv[i], "e:", 2)) { putenv(argv[i] + 2); continue; }
    if (!strncmp(argv[i], "x:", 2)) { while (opened) dlclose(open[--opened]); continue; }
    void *h = !strncmp(argv[i], "n:", 2)   ? dlopen(name, RTLD_NOW | RTLD_NOLOAD)
              : !strncmp(argv[i], "m:", 2) ? dlmopen(LM_ID_NEWLM, name, RTLD_NOW)
                                           : dlopen(name, RTLD_NOW);
    if (!h) { printf("%s: failed\n", argv[i]); continue; }
    if (opened < 64) open[opened++] = h;
    size_t (*v)(void) = (size_t (*)(void))dlsym(h, "cudnnGetVersion");
    int (*create)(void **) = (int (*)(void **))dlsym(h, "cudnnCreate");
    void *handle;
    if (!strncmp(argv[i], "o:", 2)) create = 0;  // opened only: no sub-library is loaded
    printf("%s: version %zu create %d\n", argv[i], v ? v() : 0, create ? create(&handle) : -1);
  }
  return 0;
}
C
mkdir -p "$t/notelf" "$t/isdir/libcudnn.so.9" "$t/nodep" "$t/gone"
echo "not a library" >"$t/notelf/libcudnn.so.9"
"$CC" -shared -o "$t/gone/libnothere.so" -x c /dev/null
"$CC" -shared -o "$t/nodep/libcudnn.so.9" -x c /dev/null -L"$t/gone" -Wl,--no-as-needed -lnothere
rm "$t/gone/libnothere.so"
good=$FAKES/9.20.0/lib64
for mode in audit preload; do
  for bad in notelf isdir nodep; do
    LD_LIBRARY_PATH=$good expect_rc 0 $mode "$t/loads" "$t/$bad/libcudnn.so.9" libcudnn.so.9 "$good/libcudnn.so.9"
    has "$t/$bad/libcudnn.so.9: failed"
    has "libcudnn.so.9: version 92000 create 0"
    has "$good/libcudnn.so.9: version 92000 create 0"
  done
  # A query loads nothing and so decides nothing: the loader's own 9.20.0 loads next.
  LD_LIBRARY_PATH=$good expect_rc 0 $mode "$t/loads" "n:$FAKES/9.23.0/lib64/libcudnn.so.9" libcudnn.so.9
  has "n:$FAKES/9.23.0/lib64/libcudnn.so.9: failed"
  has "libcudnn.so.9: version 92000 create 0"
done
# Under LD_AUDIT the shim sees a new namespace's loads: they are that namespace's own.
expect_rc 0 audit "$t/loads" "$good/libcudnn.so.9" "m:$FAKES/9.23.0/lib64/libcudnn.so.9"
has "$good/libcudnn.so.9: version 92000 create 0"
has "m:$FAKES/9.23.0/lib64/libcudnn.so.9: version 92300 create 0"

# The decision of a load that mapped nothing does not outlive it (a second outside tester's
# findings): with the map's 9.1.0 and 9.20.0, a need that changes between a query, a load into
# another namespace, or a family closed whole, and the next load: that load is decided for the new
# need (it kept the first answer, silently).
fake_map 9.1.0 9.20.0 >"$t/map.toml"
export CUDNN_COMPAT_MAP=$t/map.toml
for mode in audit preload; do
  LD_LIBRARY_PATH=$FAKES/9.1.0/lib64 CUDNN_COMPAT_REQUIRE=9.1 expect_rc 0 $mode "$t/loads" \
    n:libcudnn.so.9 e:CUDNN_COMPAT_REQUIRE=9.20 libcudnn.so.9
  has "libcudnn.so.9: version 92000 create 0"
  LD_LIBRARY_PATH=$FAKES/9.1.0/lib64 CUDNN_COMPAT_REQUIRE=9.1 expect_rc 0 $mode "$t/loads" \
    o:libcudnn.so.9 o:libcudnn_cnn.so.9 x: e:CUDNN_COMPAT_REQUIRE=9.20 libcudnn.so.9
  has "o:libcudnn.so.9: version 90100"
  has "libcudnn.so.9: version 92000 create 0"
done
LD_LIBRARY_PATH=$FAKES/9.1.0/lib64 expect_rc 0 audit "$t/loads" m:libcudnn.so.9 e:CUDNN_COMPAT_REQUIRE=9.20 libcudnn.so.9
has "m:libcudnn.so.9: version 90100 create 0"
has "libcudnn.so.9: version 92000 create 0"
