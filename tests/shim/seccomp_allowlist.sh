# A site that writes its seccomp allowlist from a strace of the program without the shim, plus
# the calls docs/shim.md lists for a decision under a filter, keeps its host: the load is the
# ordinary one with at most one line, on the table's path (a node no process has learnt) and the
# engine's (a user's own copy), and where the table redirects. The list of e6e279c's docs lacked
# uname and the calls of the one line (poll, rt_sigprocmask, rt_sigpending, writev), and that of
# 3ca4764 munmap (the table's redirect) and rt_sigtimedwait (the line to a broken pipe,
# /work/outside/h110/v02): the host died of SIGSYS (outside testers' findings). The list is read
# from the doc: one place for it.
source "$(dirname "$0")/common.sh"
command -v strace >/dev/null || skip "no strace (scripts/deps.sh installs it)"
listed=$(sed -n '/<!-- allowlist -->/,/<!-- \/allowlist -->/p' "$(dirname "$0")/../../docs/shim.md" |
  grep -oE '`[a-z_0-9]+`' | tr -d '`' | grep -vx 'O_CREAT\|SLURMD_NODENAME\|SIGPIPE' | sort -u)
[[ $(wc -w <<<"$listed") -ge 10 ]] || fail "docs/shim.md's allowlist is not there: $listed"
compile allowlisted -I"$(dirname "$0")/.." <<'C'
#include "seccomp_filters.h"
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
/* allowlisted NR,NR,...|all NAME: the allowlist (all: a filter that allows every call, for the
 * trace), then dlopen(NAME). */
int main(int argc, char **argv) {
  unsigned nr[255];
  int n = 0;
  if (argc != 3) return 2;
  if (strcmp(argv[1], "all") == 0) {
    if (!deny_call(~0u, 1)) return 2;
  } else {
    for (char *p = argv[1]; *p && n < 255; p += *p == ',') nr[n++] = (unsigned)strtoul(p, &p, 10);
    if (!allow_only(nr, n)) return 2;
  }
  void *lib = dlopen(argv[2], RTLD_NOW);
  printf("loaded %s\n", lib ? "a library" : "nothing");
  return 0;
}
C
# The numbers of the calls named, by the C library's own headers.
numbers() {
  local names=("$@") n
  printf '#include <sys/syscall.h>\n%s\n' "$(printf 'SYS_%s\n' "${names[@]}")" |
    "$CC" -E -P - | grep -E '^[0-9]+$' | sort -un | paste -sd,
}
family_client
fake_map 9.0.0 9.1.0 >"$t/map9.toml"
expect_rc 0 "$CUDNN_COMPAT" map validate "$t/map9.toml"
cp -a "$FAKES/9.0.0" "$t/own"
for path in table engine; do
  dir=$FAKES/9.0.0/lib64
  [[ $path == table ]] || dir=$t/own/lib64
  rm -f "$node_of_scenario"
  strace -f -qq -o "$t/plain.st" env LD_LIBRARY_PATH="$dir" "$t/allowlisted" all libcudnn.so.9 \
    >/dev/null
  plain=$(sed -n '/PR_SET_SECCOMP/,$p' "$t/plain.st" | grep -oE '^[0-9]+ +[a-z_0-9]+\(' |
    awk '{sub(/\(/, "", $2); print $2}' | sort -u)
  # shellcheck disable=SC2086
  allowed=$(numbers $plain $listed exit exit_group)
  for mode in audit preload; do
    CUDNN_COMPAT_MAP=$t/map9.toml LD_LIBRARY_PATH=$dir CUDNN_COMPAT_REQUIRE=9.1 \
      expect_rc 0 env LD_${mode^^}=$SHIM "$t/allowlisted" "$allowed" libcudnn.so.9
    has "loaded a library"
    has "cudnn-compat: could not check libcudnn.so.9: this process runs under a seccomp filter"
    count "cudnn-compat:" 1
    # The table deciding, with the node's facts given as the line says, and redirecting
    # (helper 106: munmap killed the host).
    [[ $path == table ]] || continue
    CUDNN_COMPAT_MAP=$t/map9.toml LD_LIBRARY_PATH=$dir CUDNN_COMPAT_REQUIRE=9.1 \
      CUDNN_COMPAT_GPU_ARCH=8.0 CUDNN_COMPAT_DRIVER_CUDA=12.4 \
      expect_rc 0 env LD_${mode^^}=$SHIM "$t/allowlisted" "$allowed" libcudnn.so.9
    has "loaded a library"
    lacks "cudnn-compat:"
  done
done
