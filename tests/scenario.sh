# What every scenario script (tests/cli/*.sh, tests/shim/*.sh) starts from: strict bash, a clean
# environment, a temporary directory $t, and the assertions. Sourced by each suite's common.sh.
set -euo pipefail
unset CUDNN_COMPAT_MAP CUDNN_COMPAT_REQUIRE CUDNN_COMPAT_CUDA CUDNN_COMPAT_DEBUG CUDNN_COMPAT_DISABLE
unset LD_PRELOAD LD_AUDIT LD_LIBRARY_PATH
unset CUDA_HOME CUDA_PATH  # doctor reads the loaded CUDA from them: each scenario sets its own
t=$(mktemp -d "${TMPDIR:-/tmp}/cudnn-compat-test.XXXXXX")
# Which command failed, and where, as mold's test scripts say it.
set -E
trap 'echo "FAIL: line $LINENO of ${BASH_SOURCE[0]##*/}: $BASH_COMMAND (exit $?)" >&2' ERR
trap 'rm -rf "$t"' EXIT

# A stand-in shim in LD_PRELOAD would come before the sanitizer pass's runtime, which refuses that.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0

fail() { echo "FAIL: $*" >&2; exit 1; }
# standin_shim: prints the path of a do-nothing object that ld.so loads as the shim (its SONAME),
# an engine beside it, for telling doctor and resolve "the shim is on" without the shim in their own
# process: they judge what ld.so would load, not a name (helper 99: a missing file was "on").
standin_shim() {
  local d=$t/standin-shim
  if [[ ! -f $d/libcudnn-compat.so ]]; then
    mkdir -p "$d"
    echo 'unsigned la_version(unsigned v) { return v; }' |
      command "${CC:-cc}" -shared -fPIC -Wl,-soname,libcudnn-compat.so -o "$d/libcudnn-compat.so" -x c -
    ln -s /bin/true "$d/cudnn-compat-select"
  fi
  echo "$d/libcudnn-compat.so"
}
# skip REASON: CTest counts exit 77 as skipped and shows the reason.
skip() { echo "SKIP: $*"; exit 77; }
# nobody_reads PATH...: skips unless the user nobody (65534) can read each PATH, for a scenario that
# runs a process as another user: a checkout in a private directory (mktemp -d makes one 0700)
# hides the build tree from every other user.
nobody_reads() {
  local p
  command -v setpriv >/dev/null || skip "no setpriv (util-linux)"
  for p in "$@"; do
    setpriv --reuid=65534 --regid=65534 --clear-groups test -r "$p" ||
      skip "the user nobody cannot read $p (a checkout in a private directory?)"
  done
}
# expect_rc N cmd...: runs cmd, keeps its stdout+stderr in $out, fails unless it exits N.
expect_rc() {
  local want=$1 rc=0; shift
  out=$("$@" 2>&1) || rc=$?
  [[ $rc == "$want" ]] || fail "$* exited $rc, expected $want; output:"$'\n'"$out"
}
# has TEXT / lacks TEXT: $out contains TEXT (a fixed string), or does not.
has() { grep -qF -- "$1" <<<"$out" || fail "expected '$1' in:"$'\n'"$out"; }
lacks() { ! grep -qF -- "$1" <<<"$out" || fail "did not expect '$1' in:"$'\n'"$out"; }
# count TEXT N: $out holds exactly N lines containing TEXT.
count() {
  local n; n=$(grep -cF -- "$1" <<<"$out" || true)
  [[ $n == "$2" ]] || fail "expected $2 lines with '$1', got $n in:"$'\n'"$out"
}
