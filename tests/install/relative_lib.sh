#!/usr/bin/env bash
# A relative `lib` would be read against each job's working directory: whoever controls a job's
# cwd would run code in it (the probe loads the library and runs its constructor). `map validate`
# calls it an error; the engine skips the entry and never probes a path that is not absolute.
. "$(dirname "$0")/common.sh"
cc=$BUILD_DIR/bin/cudnn-compat
mkdir -p "$t/job/rel/lib64"
"$CC" -shared -fPIC -Wl,-soname,libcudnn.so.5 -o "$t/job/rel/lib64/libcudnn.so.5" -x c - <<'C'
#include <fcntl.h>
#include <stddef.h>
#include <unistd.h>
__attribute__((constructor)) static void planted(void) {
  close(open("ran-planted-code", O_CREAT | O_WRONLY, 0644));
}
size_t cudnnGetVersion(void) { return 5199; }
C
{
  site_map
  printf '[[cudnn]]\nversion = "5.1.99"\nlib = "rel/lib64"\ncuda = "8.0"\n'
} >"$t/map.toml"
export CUDNN_COMPAT_MAP=$t/map.toml
cd "$t/job"

tf2016_client
rc=0
out=$(env LD_LIBRARY_PATH="$FAKES/5.0.5/lib64" LD_AUDIT="$BUILD_DIR/lib/cudnn-compat/libcudnn-compat.so" \
  "$t/apps/tf2016" 2>&1) || rc=$?
[[ ! -e ran-planted-code ]] || fail "the engine loaded a library from the job's working directory"
[[ $rc == 0 ]] || fail "the job failed: $out"
has "cuDNN 5110 from $FAKES/5.1.10/lib64/libcudnn.so.5"

expect_rc 0 "$cc" resolve libcudnn.so.5 --require 5.1
has "$FAKES/5.1.10/lib64/libcudnn.so.5"
[[ ! -e ran-planted-code ]] || fail "resolve loaded a library from the working directory"
expect_rc 1 "$cc" map validate --probe
[[ ! -e ran-planted-code ]] || fail "validate --probe loaded a library from the working directory"
has "error: lib \"rel/lib64\" of cuDNN 5.1.99 is relative"
