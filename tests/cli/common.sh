# Sourced by every tests/cli/*.sh scenario. CTest passes:
#   CUDNN_COMPAT  the cudnn-compat binary under test
#   FAKES         the directory of the FAKE cuDNN releases (tests/fakecudnn)
source "$(dirname "${BASH_SOURCE[0]}")/../scenario.sh"
: "${CUDNN_COMPAT:?}" "${FAKES:?}"
cc() { "$CUDNN_COMPAT" "$@"; }

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

# entries VERSION:LIB[:MODULE]...: a map of just these [[cudnn]] entries, one table each.
entries() {
  echo "schema = 1"
  local e v lib module
  for e in "$@"; do
    IFS=: read -r v lib module <<<"$e"
    printf '[[cudnn]]\nversion = "%s"\nlib = "%s"\n' "$v" "$lib"
    [[ -z $module ]] || printf 'module = "%s"\n' "$module"
  done
}
