# A node whose NVML fails (a driver updated under a running kernel) or hangs: one line that says
# so, and the loader's own choice - never a guess. A hang costs one deadline, once per boot.
source "$(dirname "$0")/common.sh"
node_scenario

FAKE_NVML_FAIL=1 expect_rc 0 env LD_AUDIT="$SHIM" "$t/client"
has "loaded $t/turing/lib64/libcudnn.so.9"
has "cudnn-compat: libcudnn.so.9: this node's GPUs and driver are not known (NVML: Failed to initialize NVML: Driver/library version mismatch); loading as usual"
count "cudnn-compat:" 1

export SLURMD_NODENAME=$SLURMD_NODENAME-hang CUDNN_COMPAT_TIMEOUT=2
start=$(date +%s)
FAKE_NVML_HANG=1 expect_rc 0 env LD_AUDIT="$SHIM" "$t/client"
has "loaded $t/turing/lib64/libcudnn.so.9"
has "this node's GPUs and driver are not known (NVML did not answer within 1 s); loading as usual"
count "cudnn-compat:" 1
(( $(date +%s) - start < 10 )) || fail "a hanging NVML held the load past the deadline"
# Remembered: the next load does not wait again.
start=$(date +%s)
FAKE_NVML_HANG=1 expect_rc 0 env LD_AUDIT="$SHIM" "$t/client"
has "NVML did not answer"
(( $(date +%s) - start < 2 )) || fail "the hang was paid twice in one boot"
rm -f /tmp/cudnn-compat-"$(id -u)"/node-"$SLURMD_NODENAME"
