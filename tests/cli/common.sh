# Sourced by every tests/cli/*.sh scenario. CTest passes:
#   CUDNN_COMPAT  the cudnn-compat binary under test
#   FAKES         the directory of the FAKE cuDNN releases (tests/fakecudnn)
set -euo pipefail
: "${CUDNN_COMPAT:?}" "${FAKES:?}"
unset CUDNN_COMPAT_MAP CUDNN_COMPAT_REQUIRE CUDNN_COMPAT_CUDA
t=$(mktemp -d "${TMPDIR:-/tmp}/cudnn-compat-test.XXXXXX")
trap 'rm -rf "$t"' EXIT
cc() { "$CUDNN_COMPAT" "$@"; }

fail() { echo "FAIL: $*" >&2; exit 1; }
# expect_rc N cmd...: runs cmd, keeps its stdout+stderr in $out, fails unless it exits N.
expect_rc() {
  local want=$1 rc=0; shift
  out=$("$@" 2>&1) || rc=$?
  [[ $rc == "$want" ]] || fail "$* exited $rc, expected $want; output:"$'\n'"$out"
}
# has TEXT: $out contains TEXT (fixed string).
has() { grep -qF -- "$1" <<<"$out" || fail "expected '$1' in:"$'\n'"$out"; }
lacks() { ! grep -qF -- "$1" <<<"$out" || fail "did not expect '$1' in:"$'\n'"$out"; }

# A map of every fake release, as an admin would write it.
fake_map() {
  cat <<MAP
schema = 1

[policy]
rule = "nvidia"

[[cudnn]]
version = "5.0.5"
lib = "$FAKES/5.0.5/lib64"
cuda = "8.0"
module = "cudnn/5.0"

[[cudnn]]
version = "5.1.10"
lib = "$FAKES/5.1.10/lib64"
cuda = "8.0"
module = "cudnn/5.1"

[[cudnn]]
version = "8.9.7"
lib = "$FAKES/8.9.7/lib64"
cuda = "12.2"
module = "cuDNN/8.9.7.29-CUDA-12.2.0"

[[cudnn]]
version = "9.1.0"
lib = "$FAKES/9.1.0/lib64"
cuda = "12.4"
module = "cudnn/9.1"

[[require]]
match = "/opt/apps/tensorflow/1.0/*"
cudnn = "5.1"
MAP
}
