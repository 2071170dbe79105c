# Issue 9, item 7: a daemon, with fds 0 and 1 closed, still gets the redirect. The landed shim's
# answer pipe then became fds 0 and 1, and the engine's answer was lost.
source "$(dirname "$0")/common.sh"
compile daemon <<C
$load5_main
#include <unistd.h>
int main(void) {
  close(0);
  close(1);
  void *lib = load5();  /* prints to the closed stdout: the result goes to stderr */
  if (!lib) return 1;
  struct link_map *map;
  dlinfo(lib, RTLD_DI_LINKMAP, &map);
  fprintf(stderr, "daemon: cuDNN %zu from %s\n", ((size_t (*)(void))dlsym(lib, "cudnnGetVersion"))(),
          map->l_name);
  return 0;
}
C
tf2016_setting

for mode in audit preload; do
  expect_rc 0 $mode "$t/daemon"
  has "daemon: $redirected"
done
