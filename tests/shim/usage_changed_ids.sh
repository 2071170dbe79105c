# A root process that set its effective uid to another user's (setresuid(-1, 65534, -1)) and then
# loads cuDNN writes no record to the spool: its record would have made root's spool file owned by
# nobody, which ingest refuses as squatted, sending every later root record to a file of its own
# (an outside tester's finding). A drop is counted instead.
source "$(dirname "$0")/common.sh"
[[ $(id -u) == 0 ]] || skip "changing the effective uid needs root"
compile seteuid_host <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <unistd.h>
/* seteuid_host [same]: "same" keeps its ids (the control: its record is written). */
int main(int argc, char **argv) {
  if (argc < 2 && setresuid(-1, 65534, -1) != 0) return 2;
  void *lib = dlopen("libcudnn.so.5", RTLD_NOW);
  size_t (*version)(void) = lib ? (size_t (*)(void))dlsym(lib, "cudnnGetVersion") : 0;
  printf("cuDNN %zu\n", version ? version() : 0);
  return 0;
}
C
mkdir -m 1733 "$t/spool"
chmod 755 "$t"
export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 CUDNN_COMPAT_REQUIRE=5.1.3
{ fake_map 5.0.5 5.1.10; printf '[usage]\nmode = "record"\nto = "%s"\n' "$t/spool"; } >"$t/map.toml"
"$CUDNN_COMPAT" map validate >/dev/null
# The control: the same host with its ids as they were writes its record to root's own file.
expect_rc 0 audit "$t/seteuid_host" same
has "cuDNN 5110"
[[ $(cat "$t"/spool/* 2>/dev/null | wc -l) == 1 ]] || fail "the control wrote no record: $(ls -l "$t/spool")"
[[ $(stat -c %u "$t"/spool/*) == 0 ]] || fail "the control's spool file is not root's"
for mode in audit preload; do
  expect_rc 0 $mode "$t/seteuid_host"
  has "cuDNN 5110"
done
[[ $(ls "$t/spool" | wc -l) == 1 && $(cat "$t"/spool/* | wc -l) == 1 ]] ||
  fail "a record was written with the ids changed: $(ls -l "$t/spool")"
