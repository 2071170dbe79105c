# Beside Spindle (LLNL's LD_AUDIT library loader for jobs at scale): LD_AUDIT=<spindle>:<shim>
# and <shim>:<spindle> both hand the process the release the map chooses, and its bytes still
# come from the other auditor's node-local cache. glibc calls the auditors' la_objsearch in
# LD_AUDIT order, each given the name the one before returned (elf/dl-audit.c,
# _dl_audit_objsearch); a NULL ends the search.
#
# The stand-in below behaves as Spindle's client does (src/client/auditclient/
# auditclient_common.c, client.c: client_library_load): a name without a slash is returned as it
# is; any path, at every flag (the program's own path at LA_SER_ORIG and each directory the loader
# tries), becomes a path in the node-local cache, the file copied there on first use, and a path
# that does not exist becomes one under a prefix where nothing exists (Spindle's
# NOT_FOUND_PREFIX). Like Spindle, which leaves libc alone, it relocates only the "shared file
# system": here the FAKE releases and this test's own directory. The cache keeps each file's
# base name, one subdirectory per source directory.
source "$(dirname "$0")/common.sh"
# The client loads cuDNN, runs the sub-library checks (which load the family) and lists the cuDNN
# files mapped, from /proc/self/maps: for a directory the loader tried (LA_SER_LIBPATH and the
# rest), glibc 2.36 maps the file an auditor answered but keeps the tried path as the object's
# name, so dl_iterate_phdr would name the shared file system while the bytes came from the cache.
compile family <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
  void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) return printf("dlopen: %s\n", dlerror()), 1;
  printf("version %zu\n", ((size_t (*)(void))dlsym(lib, "cudnnGetVersion"))());
  int status = 0;
  for (int i = 2; i < argc; ++i) {
    int (*check)(void) = (int (*)(void))dlsym(lib, argv[i]);
    printf("%s = %d\n", argv[i], check ? check() : -1);
    status |= check ? check() : -1;
  }
  FILE *maps = fopen("/proc/self/maps", "r");
  char line[4608], last[4608] = "";
  while (maps && fgets(line, sizeof line, maps)) {
    const char *path = strchr(line, '/');
    if (!path || !strstr(path, "/libcudnn") || strstr(path, "libcudnn-compat") || !strcmp(path, last))
      continue;
    printf("loaded %s", path);
    strcpy(last, path);
  }
  return status ? 3 : 0;
}
C
cache=$t/node-local
mkdir "$cache"
"$CC" -shared -fPIC -o "$t/standin.so" -x c - <<'C'
#define _GNU_SOURCE
#include <fcntl.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>
unsigned int la_version(unsigned int version) { return version; }
static int under(const char *path, const char *list) {
  for (const char *p = list; p && *p;) {
    const char *end = strchrnul(p, ':');
    if (end > p && !strncmp(path, p, end - p) && path[end - p] == '/') return 1;
    p = *end ? end + 1 : end;
  }
  return 0;
}
char *la_objsearch(const char *name, uintptr_t *cookie, unsigned int flag) {
  (void)cookie;
  const char *cache = getenv("STANDIN_CACHE");
  if (!strchr(name, '/') || !cache || !under(name, getenv("STANDIN_SHARED")) ||
      under(name, cache))
    return (char *)name;
  char *out = 0;
  struct stat st;
  if (stat(name, &st) != 0) {  // a miss: a path that does not exist
    if (asprintf(&out, "/__not_exists%s", name) < 0) return (char *)name;
  } else {
    const char *base = strrchr(name, '/') + 1;
    unsigned long h = 5381;  // the source directory's hash names its cache subdirectory
    for (const char *c = name; c < base; ++c) h = h * 33 + (unsigned char)*c;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/%016lx", cache, h);
    mkdir(dir, 0700);
    if (asprintf(&out, "%s/%s", dir, base) < 0) return (char *)name;
    if (access(out, F_OK) != 0) {  // first use: copy, then rename into place
      char tmp[4200];
      snprintf(tmp, sizeof tmp, "%s.%d", out, getpid());
      int in = open(name, O_RDONLY), to = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0755);
      off_t off = 0;
      while (in >= 0 && to >= 0 && off < st.st_size && sendfile(to, in, &off, st.st_size - off) > 0) {}
      close(in), close(to);
      rename(tmp, out);
    }
  }
  const char *log = getenv("STANDIN_LOG");
  FILE *f = log ? fopen(log, "a") : 0;
  if (f) fprintf(f, "%u %s -> %s\n", flag, name, out), fclose(f);
  return out;
}
C
export STANDIN_CACHE=$cache STANDIN_SHARED=$FAKES:$t STANDIN_LOG=$t/standin.log
fake_map 9.0.0 9.1.0 >"$t/map.toml"
expect_rc 0 "$CUDNN_COMPAT" map validate "$t/map.toml"
checks=(cudnnGraphVersionCheck cudnnOpsVersionCheck cudnnCnnVersionCheck cudnnAdvVersionCheck)

# from_cache RELEASE: every cuDNN library the client lists is mapped from the cache, and is that
# release's file byte for byte (dl_iterate_phdr gives the mapped file's name).
from_cache() {
  local n=0 path
  while read -r path; do
    [[ $path == "$cache"/* ]] || fail "$path is not from the cache ($ORDER):"$'\n'"$out"
    cmp -s "$path" "$FAKES/$1/lib64/$(basename "$path")" ||
      fail "$path is not FAKE $1's $(basename "$path") ($ORDER)"
    n=$((n + 1))
  done < <(sed -n 's/^loaded //p' <<<"$out")
  [[ $n == 5 ]] || fail "expected 5 cuDNN libraries, got $n ($ORDER):"$'\n'"$out"
}

for ORDER in spindle-first shim-first; do
  if [[ $ORDER == spindle-first ]]; then audit2=$t/standin.so:$SHIM; else audit2=$SHIM:$t/standin.so; fi
  rm -rf "${cache:?}"/*
  # The loader's own pick does not fit: FAKE 9.1.0 is handed over, through the cache.
  expect_rc 0 env LD_LIBRARY_PATH="$FAKES/9.0.0/lib64" CUDNN_COMPAT_REQUIRE=9.1 \
    LD_AUDIT="$audit2" "$t/family" libcudnn.so.9 "${checks[@]}"
  has "version 90100"; lacks "cudnn-compat:"
  from_cache 9.1.0
  # The program's own absolute path to a misfit: the same.
  expect_rc 0 env CUDNN_COMPAT_REQUIRE=9.1 LD_AUDIT="$audit2" \
    "$t/family" "$FAKES/9.0.0/lib64/libcudnn.so.9" "${checks[@]}"
  has "version 90100"; lacks "cudnn-compat:"
  from_cache 9.1.0
  # The loader's pick fits and is kept: its family, whole, from the cache (the family's directory
  # is the release's own, not the cache subdirectory the first file landed in).
  rm -rf "${cache:?}"/*
  expect_rc 0 env LD_LIBRARY_PATH="$FAKES/9.0.0/lib64" CUDNN_COMPAT_REQUIRE=9.0 \
    LD_AUDIT="$audit2" "$t/family" libcudnn.so.9 "${checks[@]}"
  has "version 90000"; lacks "cudnn-compat:"
  from_cache 9.0.0
done
# The program's own absolute path to a release that fits.
for ORDER in spindle-first shim-first; do
  if [[ $ORDER == spindle-first ]]; then audit2=$t/standin.so:$SHIM; else audit2=$SHIM:$t/standin.so; fi
  rm -rf "${cache:?}"/*
  expect_rc 0 env CUDNN_COMPAT_REQUIRE=9.1 LD_AUDIT="$audit2" \
    "$t/family" "$FAKES/9.1.0/lib64/libcudnn.so.9" "${checks[@]}"
  has "version 90100"; lacks "cudnn-compat:"
  from_cache 9.1.0
done
# A program linked against libcudnn.so.9 (DT_NEEDED, loaded before main runs), in both orders.
compile linked -L"$FAKES/9.0.0/lib64" -lcudnn <<'C'
#include <stddef.h>
#include <stdio.h>
#include <string.h>
size_t cudnnGetVersion(void);
int main(void) {
  printf("version %zu\n", cudnnGetVersion());
  FILE *maps = fopen("/proc/self/maps", "r");
  char line[4608], last[4608] = "";
  while (maps && fgets(line, sizeof line, maps)) {
    const char *path = strchr(line, '/');
    if (!path || !strstr(path, "/libcudnn.so") || !strcmp(path, last)) continue;
    printf("loaded %s", path);
    strcpy(last, path);
  }
  return 0;
}
C
for audit2 in "$t/standin.so:$SHIM" "$SHIM:$t/standin.so"; do
  rm -rf "${cache:?}"/*
  expect_rc 0 env LD_LIBRARY_PATH="$FAKES/9.0.0/lib64" CUDNN_COMPAT_REQUIRE=9.1 LD_AUDIT="$audit2" "$t/linked"
  has "version 90100"
  path=$(sed -n 's/^loaded //p' <<<"$out")
  [[ $path == "$cache"/* ]] && cmp -s "$path" "$FAKES/9.1.0/lib64/libcudnn.so.9" ||
    fail "DT_NEEDED, $audit2: not FAKE 9.1.0's libcudnn.so.9 from the cache:"$'\n'"$out"
done
