# Sourced by every tests/shim/*.sh scenario. CTest passes:
#   SHIM          the libcudnn-compat.so under test (cudnn-compat-select beside it)
#   SHIM_O0       the same built at -O0
#   CUDNN_COMPAT  the cudnn-compat binary
#   FAKES         the FAKE cuDNN releases (tests/fakecudnn)
#   CC            the C compiler for the clients
#   BUILD_DIR     the build tree, for the scenarios that install it (deployed)
source "$(dirname "${BASH_SOURCE[0]}")/../scenario.sh"
: "${SHIM:?}" "${FAKES:?}" "${CC:?}"
# The map is looked for at $CUDNN_COMPAT_MAP first; point it at nothing unless a test writes one.
export CUDNN_COMPAT_MAP=$t/map.toml
# A node of the scenario's own: each engine learns the node and writes its file
# (/tmp/cudnn-compat-UID/node-NODE) when there is none, and scenarios that shared this host's file
# rewrote it under each other, which made the other's memo entries stale (shim/memo_replaced and
# shim/memo_hostile_host, run together, saw engines where the memo should have answered).
# Learnt at the start, as on a node where cuDNN was loaded before (the scenarios count what a
# decision starts; learning a node is tests/gpu's): doctor learns it as the engine does.
export SLURMD_NODENAME=shimtest-$$-$RANDOM
node_of_scenario=/tmp/cudnn-compat-$(id -u)/node-$SLURMD_NODENAME
trap 'rm -rf "$t" "$node_of_scenario"' EXIT
"${CUDNN_COMPAT:?}" doctor >/dev/null 2>&1 || true
[[ -f $node_of_scenario ]] || fail "doctor did not learn the scenario's node ($node_of_scenario)"

# deployed: the tree as a site runs it - installed (cmake --install of BUILD_DIR, or a copy of
# INSTALLED_TREE, an install of another build to hold against this one) to $t/first, then moved
# to $t/moved - with no CUDNN_COMPAT_* set: SHIM and CUDNN_COMPAT point into the moved tree, and
# $map is the map under its etc/, which the shim finds from its own place.
deployed() {
  if [[ -n ${INSTALLED_TREE:-} ]]; then
    cp -a "$INSTALLED_TREE" "$t/first"
  else
    cmake --install "${BUILD_DIR:?}" --prefix "$t/first" >/dev/null
  fi
  mv "$t/first" "$t/moved"
  prefix=$t/moved map=$t/moved/etc/cudnn-compat/map.toml
  SHIM=$prefix/lib/cudnn-compat/libcudnn-compat.so CUDNN_COMPAT=$prefix/bin/cudnn-compat
  local v
  for v in "${!CUDNN_COMPAT_@}"; do unset "$v"; done
}

# compile NAME [cc flags...] < C source: builds $t/NAME.
compile() { local name=$1; shift; "$CC" -o "$t/$name" -x c - -x none "$@" -ldl; }
# audit CMD... / preload CMD...: runs CMD with the shim as LD_AUDIT or as LD_PRELOAD.
audit() { LD_AUDIT=$SHIM "$@"; }
preload() { LD_PRELOAD=$SHIM "$@"; }

# A map entry per FAKE release named.
fake_map() {
  echo "schema = 1"
  echo "[policy]"
  echo "rule = \"${RULE:-nvidia}\""
  local v
  for v in "$@"; do
    printf '[[cudnn]]\nversion = "%s"\nlib = "%s"\nmodule = "cudnn/%s"\n' "$v" "$FAKES/$v/lib64" "$v"
  done
}

# The TensorFlow-2016 client (tf2016_client.c, shared with the demo).
tf2016_client() { compile tf2016 <"$(dirname "${BASH_SOURCE[0]}")/tf2016_client.c"; }
# twice_client: $t/twice dlopens libcudnn.so.5 twice and prints "cuDNN <version> same" (one
# handle) - what the usage scenarios load.
twice_client() {
  compile twice <<'C'
#include <dlfcn.h>
#include <stdio.h>
int main(void) {
  void *a = dlopen("libcudnn.so.5", RTLD_NOW), *b = dlopen("libcudnn.so.5", RTLD_NOW);
  size_t (*v)(void) = a ? (size_t (*)(void))dlsym(a, "cudnnGetVersion") : 0;
  printf("cuDNN %zu %s\n", v ? v() : 0, a == b ? "same" : "other");
  return 0;
}
C
}

# usage_spool: three records the real shim wrote (FAKE 5.0.5 first; needs 5.0.5, 5.1.3, 5.1.3) to
# the spool file $spool in $t/spool.
usage_spool() {
  tf2016_client
  mkdir "$t/spool"
  fake_map 5.0.5 5.1.10 >"$t/map.toml"
  printf '[usage]\nmode = "record"\nto = "%s"\n' "$t/spool" >>"$t/map.toml"
  local need
  for need in 5.0.5 5.1.3 5.1.3; do
    LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 CUDNN_COMPAT_REQUIRE=$need LD_AUDIT=$SHIM "$t/tf2016" >/dev/null 2>&1 || true
  done
  spool=$(echo "$t"/spool/*.usage)
}

# A client of a cuDNN 8 or 9 dispatcher: loads it by bare name, calls each function named after it
# ("NAME = status"; cudnnCreate with a handle to fill, which loads the whole family of
# sub-libraries) and lists every libcudnn* the process holds, from the link map.
family_client() {
  compile family <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
static int show(struct dl_phdr_info *info, size_t size, void *data) {
  (void)size, (void)data;
  if (strstr(info->dlpi_name, "libcudnn")) printf("loaded %s\n", info->dlpi_name);
  return 0;
}
int main(int argc, char **argv) {
  void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    printf("dlopen: %s\n", dlerror());
    return 1;
  }
  printf("version %zu\n", ((size_t (*)(void))dlsym(lib, "cudnnGetVersion"))());
  int status = 0;
  for (int i = 2; i < argc; ++i) {
    int (*check)(void) = (int (*)(void))dlsym(lib, argv[i]);
    int (*create)(void **) = (int (*)(void **))check;
    void *handle = NULL;
    const int s = !check ? -1 : strcmp(argv[i], "cudnnCreate") == 0 ? create(&handle) : check();
    printf("%s = %d\n", argv[i], s);
    status |= s;
  }
  dl_iterate_phdr(show, NULL);
  return status ? 3 : 0;
}
C
}

# A client that loads each of its arguments in turn, as a program that tries names and paths:
# "NAME: cuDNN 5110" for a load that succeeds, "NAME: fails" for one that does not.
paths_client() {
  compile paths <<'C'
#include <dlfcn.h>
#include <stdio.h>
int main(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    void *lib = dlopen(argv[i], RTLD_NOW);
    if (lib)
      printf("%s: cuDNN %zu\n", argv[i], ((size_t (*)(void))dlsym(lib, "cudnnGetVersion"))());
    else
      printf("%s: fails\n", argv[i]);
  }
  return 0;
}
C
}

# --- For the hostile scenarios (tests/shim/hostile_*.sh): hosts that are big, threaded, signal-heavy
# or daemonised, and engines that hang.

# own_shim: copies the shim and everything beside it into $t/lib and points SHIM at the copy, so
# that a test can put an engine of its own there (the shim runs cudnn-compat-select from its own
# directory); real_lib is the original directory. Whatever still runs from $t at the end is ended.
own_shim() {
  real_lib=$(dirname "$SHIM")  # the real engine and probe stay here
  mkdir -p "$t/lib"
  cp -rL "$real_lib"/. "$t/lib/"
  SHIM=$t/lib/$(basename "$SHIM")
  trap 'end_ours; rm -rf "$t" "$node_of_scenario"' EXIT
}
# ours_running [DIR]: pids of the processes still running a program from DIR (default $t).
ours_running() { pgrep -f -- "${1:-$t}/" || true; }
end_ours() {
  local pids; pids=$(ours_running)
  [[ -z $pids ]] || kill -KILL $pids 2>/dev/null || true
}
# expect_gone DIR: nothing runs from DIR (a SIGKILLed process may take a moment to go: 5 s grace).
expect_gone() {
  local i
  for i in $(seq 50); do
    [[ -z $(ours_running "$1") ]] && return 0
    sleep 0.1
  done
  fail "still running from $1 after the client exited:"$'\n'"$(ps -o pid,pgid,ppid,args -p "$(ours_running "$1" | paste -sd,)")"
}

# fake_engine MODE [NAME]: after own_shim, a program of ours as $t/lib/NAME (default the engine,
# cudnn-compat-select). It first writes $t/lib/NAME.fds (its open fds and what they point at), then:
#   pass        prints "pass" and exits (the ordinary load)
#   hang        never answers, never exits
#   trickle     prints a space every second, forever
#   slow        answers "pass" after 3 s
#   orphan      starts a child (a "probe": it writes NAME.probe.fds, closes stdout, hangs) and exits
#   hang-probe  starts such a child but keeps stdout, and hangs itself
fake_engine() {
  local mode=$1 name=${2:-cudnn-compat-select}
  rm -f "$t/lib/$name"
  "$CC" -o "$t/lib/$name" -x c - -DMODE="\"$mode\"" <<'C'
#define _GNU_SOURCE
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
static char self[PATH_MAX];
static void record(const char *who) {
  char path[PATH_MAX + 32], link[64], target[PATH_MAX];
  snprintf(path, sizeof path, "%s%s.fds", self, who);
  FILE *out = fopen(path, "w");
  DIR *d = opendir("/proc/self/fd");
  for (struct dirent *e; out && d && (e = readdir(d));) {
    if (e->d_name[0] == '.') continue;
    snprintf(link, sizeof link, "/proc/self/fd/%s", e->d_name);
    const ssize_t n = readlink(link, target, sizeof target - 1);
    target[n > 0 ? n : 0] = 0;
    fprintf(out, "fd %s -> %s\n", e->d_name, target);
  }
  if (d) closedir(d);
  if (out) fclose(out);
}
static void probe(int keep_stdout) {
  if (fork() != 0) return;
  if (!keep_stdout) close(1);
  record(".probe");
  for (;;) pause();
}
int main(void) {
  const ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  self[n > 0 ? n : 0] = 0;
  record("");
  if (!strcmp(MODE, "slow")) sleep(3);
  if (!strcmp(MODE, "pass") || !strcmp(MODE, "slow")) {
    puts("pass");
    return 0;
  }
  if (!strcmp(MODE, "orphan")) {
    probe(0);
    return 0;
  }
  if (!strcmp(MODE, "hang-probe")) probe(1);
  for (;;) {
    if (!strcmp(MODE, "trickle") && write(1, " ", 1) != 1) return 1;
    sleep(!strcmp(MODE, "trickle") ? 1 : 1000);
  }
}
C
}

# slow_engine: after own_shim, the real engine started 50 ms late (so that a host's timer fires
# while the shim waits for it).
slow_engine() {
  mv "$t/lib/cudnn-compat-select" "$t/lib/cudnn-compat-select.real"
  printf '#!/bin/sh\nsleep 0.05\nexec "$0.real" "$@"\n' >"$t/lib/cudnn-compat-select"
  chmod +x "$t/lib/cudnn-compat-select"
}

# expect_rc_files N cmd...: expect_rc, with cmd's stdin from /dev/null and its output through a
# file: a process it leaves behind must not hold the test's own pipes.
expect_rc_files() {
  local want=$1 rc=0
  shift
  "$@" </dev/null >"$t/output" 2>&1 || rc=$?
  out=$(<"$t/output")
  [[ $rc == "$want" ]] || fail "$* exited $rc, expected $want; output:"$'\n'"$out"
}
# expect_rc_within N S cmd...: expect_rc_files N, and cmd returned within S seconds. Killed at
# 2*S so that a hang fails instead of blocking CTest. Only where a stall is the bug: S far above
# the fixed behaviour and far below the stall.
expect_rc_within() {
  local want=$1 limit=$2 start ms
  shift 2
  start=$(date +%s%N)
  expect_rc_files "$want" timeout -k 2 $((limit * 2)) "$@"
  ms=$((($(date +%s%N) - start) / 1000000))
  ((ms < limit * 1000)) || fail "$* took $ms ms, expected under $limit s; output:"$'\n'"$out"
}

# load5_main: C source for the top of a client's heredoc. Its load5() dlopens libcudnn.so.5 and
# prints "cuDNN N from PATH" on stdout (stderr may be closed or broken in these clients).
load5_main='
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
static void *load5(void) {
  void *lib = dlopen("libcudnn.so.5", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    printf("dlopen: %s\n", dlerror());
    return 0;
  }
  struct link_map *map;
  dlinfo(lib, RTLD_DI_LINKMAP, &map);
  printf("cuDNN %zu from %s\n", ((size_t (*)(void))dlsym(lib, "cudnnGetVersion"))(), map->l_name);
  fflush(stdout);
  return lib;
}
'
# The tf2016 setting: FAKE 5.0.5 first on the path, 5.1.10 in the map, built with 5.1.3. A redirect
# shows as this line; the ordinary load as "cuDNN 5005".
redirected="cuDNN 5110 from $FAKES/5.1.10/lib64/libcudnn.so.5"
tf2016_setting() {
  fake_map 5.0.5 5.1.10 >"$t/map.toml"
  export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 CUDNN_COMPAT_REQUIRE=5.1.3
}
# The tf2016 client and setting with a shim of our own (own_shim) and a 2 s deadline, for engines
# that hang.
deadline_setting() {
  tf2016_client
  own_shim
  tf2016_setting
  export CUDNN_COMPAT_TIMEOUT=2
}

# The real cuDNN 9 under /usr/local/cuda, else skip: sets real (its directory) and v (the number
# it reports), with the family client built.
real_cudnn9() {
  real=/usr/local/cuda/lib64
  [[ -e $real/libcudnn.so.9 ]] || skip "no real cuDNN 9 at $real"
  family_client
  expect_rc 0 "$t/family" "$real/libcudnn.so.9"
  v=$(sed -n 's/^version \([0-9]*\)$/\1/p' <<<"$out")
}

# The setting of the hosts that adopt orphans (adopter_client.c): the map's two releases are
# libraries whose constructors spin, so the first probe gets half of the 1 s deadline, the second
# the rest, and the engine is always killed while a probe runs; the loader's own is FAKE 5.0.5.
adopter_setting() {
  trap 'end_ours; rm -rf "$t" "$node_of_scenario"' EXIT  # a probe that outlived a failing run spins: end it
  compile adopter -pthread <"$(dirname "${BASH_SOURCE[0]}")/adopter_client.c"
  local v
  for v in 5.1.10 5.1.4; do
    mkdir -p "$t/spin-$v"
    "$CC" -shared -fPIC -o "$t/spin-$v/libcudnn.so.5" -Wl,-soname,libcudnn.so.5 -x c - <<'C'
__attribute__((constructor)) static void spin(void) {
  for (volatile int i = 0;; ++i) {}
}
C
    printf '[[cudnn]]\nversion = "%s"\nlib = "%s"\nmodule = "cudnn/%s"\n' "$v" "$t/spin-$v" "$v"
  done | { echo 'schema = 1'; cat; } >"$t/map.toml"
  export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 CUDNN_COMPAT_REQUIRE=5.1.3 CUDNN_COMPAT_TIMEOUT=1
}
# adopter_ran: the host got its ordinary load after the engine was killed at the deadline, its
# threads collected its worker and nothing else, and nothing of ours remained below it.
adopter_ran() {
  has "loaded cuDNN 5005"
  has "cudnn-compat:"
  count "collected the worker" 1
  lacks "foreign process"
  has "below the host: 0 processes"
}

# pid_namespace: sets namespace to the command that runs a program as PID 1 of a PID namespace of
# its own (as root, or as anyone through a user namespace), or skips the test; and reaping_init to
# the command that runs it in such a namespace whose PID 1 is bash, which reaps orphans (the shim's
# keeper is an orphan there, not the host's child).
pid_namespace() {
  namespace=(unshare --pid --fork --mount-proc)
  "${namespace[@]}" true 2>/dev/null || namespace=(unshare --user --map-root-user --pid --fork --mount-proc)
  "${namespace[@]}" true 2>/dev/null || skip "no PID namespace here: ${namespace[*]} failed"
  reaping_init=("${namespace[@]}" bash -c '"$@"; exit $?' _)
}

# syslog_namespace: rsyslogd (the real one) and namespace, a mount namespace of this test's own in
# which it can listen on a /dev/log of its own; skips where either is missing.
syslog_namespace() {
  rsyslogd=/usr/sbin/rsyslogd
  [[ -x $rsyslogd ]] || skip "no rsyslogd (scripts/deps.sh installs rsyslog)"
  namespace=(unshare --mount --propagation private)
  "${namespace[@]}" true 2>/dev/null || namespace=(unshare --user --map-root-user --mount --propagation private)
  "${namespace[@]}" true 2>/dev/null || skip "no mount namespace here: ${namespace[*]} failed"
}

# --- The memo (shim/memo.c). Each scenario has its own, and it is off - a file where its
# directory would be, which the shim neither reads nor writes - so that every process decides as
# the first of a node does (the racy rule would otherwise turn it on a second into a scenario).
# The memo scenarios (memo_*.sh) turn it on.
mkdir -m 700 "$t/run"
export XDG_RUNTIME_DIR=$t/run
memo=$t/run/cudnn-compat
: >"$memo"
memo_on() { rm -f "$memo"; }
# together_client: $t/together N CMD... starts N copies of CMD that wait on one pipe, then releases
# them at once; it fails when any of them did.
together_client() {
  compile together <<'C'
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>
int main(int argc, char **argv) {
  int gate[2];
  if (argc < 3 || pipe(gate) != 0) return 2;
  const int n = atoi(argv[1]);
  for (int i = 0; i < n; ++i)
    if (fork() == 0) {
      char byte;
      close(gate[1]);
      if (read(gate[0], &byte, 1) < 0) _exit(3);
      close(gate[0]);
      execv(argv[2], argv + 2);
      _exit(127);
    }
  close(gate[1]);  /* every child's read returns now */
  int status, failed = 0;
  while (wait(&status) > 0) failed += !WIFEXITED(status) || WEXITSTATUS(status) != 0;
  return failed != 0;
}
C
}
# memo_setting: the memo scenarios' site, the memo on. FAKE 9.0.0 and 9.1.0 in a validated map, the user's own
# copy of FAKE 9.0.0 first on the path (no table knows it), 9.1 required, the family client built.
memo_setting() {
  memo_on
  family_client
  mkdir -p "$t/site"
  fake_map 9.0.0 9.1.0 >"$t/site/map.toml"
  export CUDNN_COMPAT_MAP=$t/site/map.toml
  expect_rc 0 "$CUDNN_COMPAT" map validate "$CUDNN_COMPAT_MAP"
  cp -a "$FAKES/9.0.0" "$t/own"
  export LD_LIBRARY_PATH=$t/own/lib64 CUDNN_COMPAT_REQUIRE=9.1
}
# decided_right N: in memo_setting, the client under the shim as LD_<$mode> got the map's 9.1.0
# without a line, and started N processes ("some": one or more); $case names the step.
decided_right() {
  started "$mode" "$t/family" libcudnn.so.9
  has "loaded $FAKES/9.1.0/lib64/libcudnn.so.9"
  lacks "cudnn-compat:"
  if [[ $1 == some ]]; then
    ((started > 0)) || fail "$mode, $case: the memo was used:"$'\n'"$trace"
  else
    [[ $started == "$1" ]] || fail "$mode, $case: $started processes, expected $1:"$'\n'"$trace"
  fi
}
# started MODE CMD...: runs CMD with the shim as LD_<MODE> (audit or preload) under strace -f, its
# stdout+stderr in $out, and sets $started to the processes it started (clone, fork and vfork
# calls that make no thread, and execve calls after its own) and $trace to the trace.
started() {
  local mode=$1; shift
  strace -f -qq -s 4096 -e trace=execve,clone,clone3,fork,vfork -o "$t/started.trace" \
    env "LD_${mode^^}=$SHIM" "$@" >"$t/output" 2>&1 || true
  out=$(<"$t/output")
  trace=$(<"$t/started.trace")
  started=$(($(grep -E '(clone3?|v?fork)\(' <<<"$trace" | grep -vc CLONE_THREAD || true) + $(grep -c 'execve(' <<<"$trace" || true) - 2))
}
# The racy rule (shim/shared/memo_format.h): a decision resting on a file changed within the last
# second is not remembered. Scenarios that have just written their files wait it out.
settle() { sleep 1.1; }
# wrap_ours PROGRAM <<EOF: after own_shim, the installed cudnn-compat-PROGRAM runs the shell lines
# on stdin first, then itself (cudnn-compat-PROGRAM.real).
wrap_ours() {
  local program=$t/lib/cudnn-compat-$1
  mv "$program" "$program.real"
  { echo '#!/bin/sh'; cat; echo 'exec "$0.real" "$@"'; } >"$program"
  chmod +x "$program"
}
# first_decision MODE LOG: in memo_setting, a first process (no memo) under the shim as LD_<MODE>
# gets the map's FAKE 9.1.0 without a line; LOG, emptied first, is what the wrappers wrote.
first_decision() {
  rm -rf "$memo"
  : >"$2"
  $1 "$t/family" libcudnn.so.9 >"$t/output" 2>&1 || true
  out=$(<"$t/output")
  has "loaded $FAKES/9.1.0/lib64/libcudnn.so.9"
  lacks "cudnn-compat:"
}
# probe_counter: after own_shim, every probe the engine starts appends a line to $t/probes first
# (after sleeping $PROBE_NAP seconds, default 0: a library that takes that long to load).
probe_counter() {
  wrap_ours probe <<EOF2
echo "probe \$1" >>"$t/probes"
sleep "\${PROBE_NAP:-0}"
EOF2
  : >"$t/probes"
}
probes_run() { wc -l <"$t/probes"; }

# --- For the scenarios of the loader's own view (issue 27): hosts without /proc, mounts that
# differ, other users.

# table_state yes|no: the map's decision table as map validate writes it, or none (every decision
# then goes to the engine).
table_state() {
  if [[ $1 == yes ]]; then
    expect_rc 0 "$CUDNN_COMPAT" map validate
  else
    rm -f "$map.decide"
  fi
}

# in_namespace SCRIPT ARGS...: runs sh -c SCRIPT (ARGS as $1...) in a mount namespace of its own
# (a user namespace too when not root), where it may mount over what the host has. Skips when no
# mount namespace can be made.
in_namespace() {
  local user=(); [[ $(id -u) == 0 ]] || user=(-r)
  unshare "${user[@]}" -m true 2>/dev/null || skip "cannot make a mount namespace (unshare -m)"
  unshare "${user[@]}" -m sh -c "$@"
}
# without_proc CMD...: CMD where /proc is an empty file system (a chroot, a sandbox).
without_proc() { in_namespace 'mount -t tmpfs none /proc && exec "$@"' sh "$@"; }

# retitled_program: $t/retitled, a host that sets its process title as setproctitle does (environ
# moved to the heap, the strings of argv and environ overwritten) and then loads libcudnn.so.9,
# printing "cuDNN N from PATH".
retitled_program() {
compile retitled <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
extern char **environ;
int main(int argc, char **argv) {
  // What setproctitle does: environ moves to the heap, and the area argv's and environ's strings
  // filled holds the title.
  char *start = argv[0], *end = argv[argc - 1] + strlen(argv[argc - 1]) + 1;
  int n = 0;
  while (environ[n]) ++n;
  char **moved = calloc(n + 1, sizeof *moved);
  for (int i = 0; i < n; ++i) {
    if (environ[i] == end) end += strlen(environ[i]) + 1;
    moved[i] = strdup(environ[i]);
  }
  environ = moved;
  memset(start, 0, end - start);
  strcpy(start, "retitled: worker 1");
  FILE *shown = fopen("/proc/self/environ", "r");
  char head[32] = "";
  if (shown && fread(head, 1, sizeof head - 1, shown) && strstr(head, "LD_"))
    puts("the title did not overwrite the environment");
  void *lib = dlopen("libcudnn.so.9", RTLD_NOW);
  if (!lib) return printf("dlopen: %s\n", dlerror()), 1;
  struct link_map *map;
  dlinfo(lib, RTLD_DI_LINKMAP, &map);
  printf("cuDNN %zu from %s\n", ((size_t (*)(void))dlsym(lib, "cudnnGetVersion"))(), map->l_name);
  return 0;
}
C
}
