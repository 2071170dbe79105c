# Containers (bubblewrap standing in for Apptainer: APPTAINER_CONTAINER set, the host's
# environment passed on): a host's LD_AUDIT, LD_PRELOAD, LD_LIBRARY_PATH and CUDNN_COMPAT_*
# carried into a container whose own cuDNN is FAKE 9.1.0 at /opt/cudnn/lib64 in its root file
# system, whose /etc has no ld.so.cache and no map, and which sees of the host only /usr and what
# a case binds in. Also the container-env lines, whose binds are what the cases below make.
#  - the shim's file absent: ld.so's own line, for LD_AUDIT and LD_PRELOAD alike (glibc 2.36 has
#    no form that fails quietly); doctor names the cause;
#  - the shim bound in at its own path, the map absent: the container's release loaded, and not a
#    line, even where the host's requirement does not fit it;
#  - shim and map bound in read-only (cudnn-compat container-env): the container's release kept
#    where it fits;
#  - a host's LD_LIBRARY_PATH with cuDNN bound in: doctor flags it.
source "$(dirname "$0")/common.sh"
command -v bwrap >/dev/null || skip "no bwrap"
bwrap --ro-bind / / true 2>/dev/null || skip "bwrap cannot make a namespace here (no user namespaces?)"
mkdir "$t/c"
compile c/family <<'C'
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>
int main(int argc, char **argv) {
  void *lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) return printf("dlopen: %s\n", dlerror()), 1;
  printf("version %zu\n", ((size_t (*)(void))dlsym(lib, "cudnnGetVersion"))());
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
shim_dir=$(dirname "$SHIM")
# The image: its own FAKE 9.1.0 is part of its root file system, not a mount of its own.
mkdir -p "$t/root/opt/cudnn"
cp -a "$FAKES/9.1.0/lib64" "$t/root/opt/cudnn/lib64"
for d in lib lib64 bin sbin; do ln -s "usr/$d" "$t/root/$d"; done
# box [bwrap options...] -- command...: the container; the host's environment goes in as it is.
box() {
  local opts=()
  while [[ $1 != -- ]]; do opts+=("$1"); shift; done
  shift
  bwrap --bind "$t/root" / --ro-bind /usr /usr --proc /proc --dev /dev --tmpfs /tmp \
    --tmpfs /etc --ro-bind "$t/c" /c \
    --setenv APPTAINER_CONTAINER /c/image.sif "${opts[@]}" "$@"
}
# with VAR=VALUE... box ...: the variables set for the host's side, which bwrap carries in.
with() {
  while [[ $1 == *=* ]]; do export "${1?}"; shift; done
  "$@"
}
fake_map 9.0.0 9.1.0 >"$t/map.toml"
"$CUDNN_COMPAT" map validate "$t/map.toml" >/dev/null
# The host's side: its module's cuDNN on LD_LIBRARY_PATH, its requirement, its map.
export LD_LIBRARY_PATH=/opt/cudnn/lib64 CUDNN_COMPAT_REQUIRE=9.1 CUDNN_COMPAT_MAP=$t/map.toml

# The shim's file absent: ld.so's line, whatever the shim would have done.
expect_rc 0 with LD_AUDIT="$SHIM" box -- /c/family libcudnn.so.9
has "ERROR: ld.so: object '$SHIM' cannot be loaded as audit interface: cannot open shared object file; ignored."
expect_rc 0 with LD_PRELOAD="$SHIM" box -- /c/family libcudnn.so.9
has "ERROR: ld.so: object '$SHIM' from LD_PRELOAD cannot be preloaded (cannot open shared object file): ignored."
# ... and doctor, run inside (its own directory bound in, without LD_AUDIT), names it.
cc_dir=$(dirname "$CUDNN_COMPAT")
expect_rc 1 box --ro-bind "$cc_dir" "$cc_dir" -- \
  /usr/bin/env LD_AUDIT="$SHIM" "$CUDNN_COMPAT" doctor
has "problem: inside a container (APPTAINER_CONTAINER is set), LD_AUDIT names $SHIM, which is not here"
has "cudnn-compat container-env"

for front in LD_AUDIT LD_PRELOAD; do
  # The shim bound in, the map not: the container's own release, silently - also where the
  # host's requirement does not fit it (the site has not opted in for containers).
  for need in 9.1 9.5; do
    expect_rc 0 with "$front=$SHIM" CUDNN_COMPAT_REQUIRE=$need \
      box --ro-bind "$shim_dir" "$shim_dir" -- /c/family libcudnn.so.9
    [[ $out == "version 90100"$'\n'"loaded /opt/cudnn/lib64/libcudnn.so.9.1.0" ]] ||
      fail "$front, map absent, need $need: expected the container's release and no line:"$'\n'"$out"
  done
  # Shim and map bound in read-only: the map's releases are the host's (absent here); the
  # container's own release fits and is kept.
  expect_rc 0 with "$front=$SHIM" box --ro-bind "$shim_dir" "$shim_dir" --ro-bind "$t" "$t" -- \
    /c/family libcudnn.so.9
  has "version 90100"; has "loaded /opt/cudnn/lib64/libcudnn.so.9.1.0"; lacks "ERROR"
done

# container-env names the shim's directory and the map's, read-only, at their own paths.
expect_rc 0 "$CUDNN_COMPAT" container-env --map "$t/map.toml"
has "export APPTAINER_BIND=\"\${APPTAINER_BIND:+\$APPTAINER_BIND,}$shim_dir:$shim_dir:ro,$t:$t:ro\""
has "export APPTAINERENV_CUDNN_COMPAT_MAP=$t/map.toml"
has "$shim_dir $shim_dir none x-create=dir,bind,ro,nosuid,nodev"
expect_rc 0 "$CUDNN_COMPAT" --json container-env --map "$t/map.toml"
has "\"APPTAINERENV_LD_AUDIT\": \"$(dirname "$shim_dir")"
# A map that is not there has no lines: their bind would fail every container start (an outside
# tester's finding: exit 0 and the lines).
expect_rc 1 "$CUDNN_COMPAT" container-env --map "$t/no-map.toml"
has "$t/no-map.toml: no such map file"
CUDNN_COMPAT_MAP=$t/no-map.toml expect_rc 1 "$CUDNN_COMPAT" container-env

# A host's LD_LIBRARY_PATH whose cuDNN the container can see (a site binds its software tree in).
# The image's own directory is not flagged.
expect_rc 0 with LD_LIBRARY_PATH="$FAKES/9.0.0/lib64:/opt/cudnn/lib64" \
  box --ro-bind "$FAKES/9.0.0/lib64" "$FAKES/9.0.0/lib64" --ro-bind "$cc_dir" "$cc_dir" \
  --ro-bind "$shim_dir" "$shim_dir" -- \
  "$CUDNN_COMPAT" doctor --require 9.0
has "warning: inside a container (APPTAINER_CONTAINER is set), LD_LIBRARY_PATH names $FAKES/9.0.0/lib64, which holds libcudnn.so.9 and is bound in from outside the image"
has "apptainer --cleanenv"
lacks "LD_LIBRARY_PATH names /opt/cudnn/lib64"
# Outside a container, nothing of the kind.
expect_rc 0 with LD_LIBRARY_PATH="$FAKES/9.1.0/lib64" "$CUDNN_COMPAT" doctor --require 9.1
lacks "inside a container"
