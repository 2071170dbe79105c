# Issue 9, item 7: an environment over 256 KiB, and one of over 2,046 variables, still carries
# CUDNN_COMPAT_REQUIRE (set last) to the decision: the redirect happens. The landed shim read only
# the first 256 KiB of /proc/self/environ (audit) and passed at most 2,046 variables to its engine.
source "$(dirname "$0")/common.sh"
tf2016_client
fake_map 5.0.5 5.1.10 >"$t/map.toml"
export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64
# with_env big|many PROGRAM: runs PROGRAM with the environment it was given, then 300 KB of
# variables or 3,000 variables, then CUDNN_COMPAT_REQUIRE=5.1.3 last.
compile with_env <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
extern char **environ;
int main(int argc, char **argv) {
  if (argc < 3) return 2;
  const int big = !strcmp(argv[1], "big"), extra = big ? 3 : 3000;
  int n = 0;
  while (environ[n]) ++n;
  char **env = calloc(n + extra + 2, sizeof *env);
  memcpy(env, environ, n * sizeof *env);
  for (int i = 0; i < extra; ++i) {
    env[n + i] = malloc(100016);
    const int len = snprintf(env[n + i], 32, "HOSTILE_%d=", i);
    memset(env[n + i] + len, 'x', big ? 100000 : 1);
    env[n + i][len + (big ? 100000 : 1)] = 0;
  }
  env[n + extra] = "CUDNN_COMPAT_REQUIRE=5.1.3";
  execve(argv[2], argv + 2, env);
  return 127;
}
C

for mode in audit preload; do
  for kind in big many; do
    expect_rc 0 $mode "$t/with_env" $kind "$t/tf2016"
    has "$redirected"
  done
done
