# CUDNN_COMPAT_TIMEOUT counts in whole seconds from 1 to 86400; any other value is the default,
# 10 s. The shim of 0ef72a5 took 0 for a zero deadline: it started the engine for a library no
# table knows and gave up at once ("gave no answer within CUDNN_COMPAT_TIMEOUT"), so the process
# kept a release that does not fit (helper 104). The shim of cf188c8 read 86401 to 864009 as given
# (its digit loop stopped at 86400 only before a digit): a library the probe hangs on then blocked
# the host's dlopen for days, not 10 s (helper 111); strace shows the milliseconds left of the
# deadline the engine is handed.
source "$(dirname "$0")/common.sh"
command -v strace >/dev/null || skip "strace is not installed (scripts/deps.sh installs it)"
mkdir -p "$t/own"
cp "$FAKES"/5.0.5/lib64/libcudnn* "$t/own/"  # a user's own copy: no table knows it
fake_map 5.1.10 >"$t/map.toml"
compile dl <<'C'
#include <dlfcn.h>
#include <stdio.h>
int main(void) {
  void *lib = dlopen("libcudnn.so.5", RTLD_NOW);
  printf("cuDNN %zu\n", lib ? ((size_t (*)(void))dlsym(lib, "cudnnGetVersion"))() : 0);
  return 0;
}
C
export LD_LIBRARY_PATH=$t/own CUDNN_COMPAT_REQUIRE=5.1
for timeout in 0 00 ""; do
  for mode in audit preload; do
    expect_rc 0 $mode env CUDNN_COMPAT_TIMEOUT=$timeout "$t/dl"
    has "cuDNN 5110"
    lacks "no answer"
  done
done
# The deadline, in ms, the engine was started with (its sixth argument).
deadline_given() {
  rm -f "$t/trace"
  XDG_RUNTIME_DIR=$t/memo-$1 strace -f -qq -e trace=execve -s 200 \
    -o "$t/trace" env CUDNN_COMPAT_TIMEOUT="$1" LD_AUDIT="$SHIM" "$t/dl" >/dev/null 2>&1 || true
  sed -n 's/.*cudnn-compat-select", \[\("[^"]*", \)\{5\}"\([0-9]*\)".*/\2/p' "$t/trace" | head -1
}
for timeout in 86401 604801 864009 1000000; do
  mkdir -p "$t/memo-$timeout" && chmod 700 "$t/memo-$timeout"
  ms=$(deadline_given $timeout)
  [[ -n $ms && $ms -le 10000 ]] || fail "CUDNN_COMPAT_TIMEOUT=$timeout gave the engine ${ms:-no} ms, not the default 10 s: $(cat "$t/trace")"
done
mkdir -p "$t/memo-86400" && chmod 700 "$t/memo-86400"
ms=$(deadline_given 86400)
[[ -n $ms && $ms -gt 86000000 ]] || fail "CUDNN_COMPAT_TIMEOUT=86400 gave the engine ${ms:-no} ms: $(cat "$t/trace")"
