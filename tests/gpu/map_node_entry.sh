# A [[node]] entry of the map stands for a node's GPUs and driver where its own cannot be learnt
# (a login or build node without GPUs): the shim (engine and table), resolve and the overrides'
# precedence; a bad entry is one line and the loader's choice.
source "$(dirname "$0")/common.sh"
[[ -x $GPU_TEST_DIR/write-fatbin ]] || skip "no write-fatbin at $GPU_TEST_DIR"
fake_release volta 9.0.0
fake_release turing 9.1.0
"$GPU_TEST_DIR/write-fatbin" "$t/volta.fatbin" cubin:60 cubin:70
"$GPU_TEST_DIR/write-fatbin" "$t/turing.fatbin" cubin:75 cubin:80
attach "$t/volta/lib64/libcudnn_cnn.so.9.0.0" "$t/volta.fatbin"
attach "$t/turing/lib64/libcudnn_cnn.so.9.1.0" "$t/turing.fatbin"
entry() { printf '[[node]]\nname = "%s"\ngpu_arch = "%s"\ndriver_cuda = "12.2"\n' "$1" "$2"; }
{ map_of volta:9.0.0:12.2 turing:9.1.0:12.4; entry "gputest-*" 7.0; } >"$t/map.toml"
client
export LD_LIBRARY_PATH=$t/turing/lib64  # the loader's own choice: the newer release
other=other-$$-$RANDOM
trap 'rm -rf "$t" /tmp/cudnn-compat-"$(id -u)"/node-{"$SLURMD_NODENAME","$other"}' EXIT

# The engine (no table yet), then the table: this node (gputest-...) is a V100 by the map.
expect_rc 0 env LD_AUDIT="$SHIM" "$t/client"
has "loaded $t/volta/lib64/libcudnn.so.9"
expect_rc 0 "$CUDNN_COMPAT" map validate "$t/map.toml"
grep -q "^nodes	1$" "$t/map.toml.decide" || fail "no nodes row:"$'\n'"$(cat "$t/map.toml.decide")"
for mode in AUDIT PRELOAD; do
  expect_rc 0 env LD_$mode="$SHIM" "$t/client"
  has "loaded $t/volta/lib64/libcudnn.so.9"
done
expect_rc 0 "$CUDNN_COMPAT" --json resolve libcudnn.so.9
has "$t/volta/lib64/libcudnn.so.9"
has "the map's [[node]] \\\"gputest-*\\\" (line "

# The overrides win over the map; another node's name does not match the entry (no NVML here:
# nothing known, the loader's choice stands).
expect_rc 0 env CUDNN_COMPAT_GPU_ARCH=8.0 CUDNN_COMPAT_DRIVER_CUDA=12.4 LD_AUDIT="$SHIM" "$t/client"
has "loaded $t/turing/lib64/libcudnn.so.9"
expect_rc 0 env SLURMD_NODENAME="$other" LD_AUDIT="$SHIM" "$t/client"
has "loaded $t/turing/lib64/libcudnn.so.9"

# A value that is no compute capability: map validate says where; at run time one line naming
# the entry, and the loader's choice.
{ map_of volta:9.0.0:12.2 turing:9.1.0:12.4; entry "gputest-*" seven; } >"$t/map.toml"
expect_rc 1 "$CUDNN_COMPAT" map validate "$t/map.toml"
has "$t/map.toml:12:1: error: [[node]] \"gputest-*\": gpu_arch=\"seven\": \"seven\" is not a compute capability"
expect_rc 0 env LD_AUDIT="$SHIM" "$t/client"
has "loaded $t/turing/lib64/libcudnn.so.9"
has "the map's [[node]] \"gputest-*\" (line 12): gpu_arch=\"seven\": \"seven\" is not a compute capability"
count "cudnn-compat:" 1
# A name that is no node name or glob: the map is invalid, where.
{ map_of volta:9.0.0:12.2; entry "login/[12]" 7.0; } >"$t/map.toml"
expect_rc 1 "$CUDNN_COMPAT" map validate "$t/map.toml"
has "'name' in [[node]] is \"login/[12]\""
