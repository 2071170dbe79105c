# Without /proc (a sandbox, a chroot) the CLI finds its installation by the path it was run by, so
# resolve still learns the node's GPUs from NVML as the shim does. Run by a bare name from PATH it
# cannot: it says so, and that its answer ignores the node, in a line each, and names the overrides.
source "$(dirname "$0")/common.sh"
node_scenario
# AddressSanitizer itself cannot run without /proc: it takes the main thread's stack from
# /proc/self/maps (without it, "False positive error reports may follow" at the first exception)
# and LeakSanitizer lists the threads in /proc. The plain suite runs this scenario.
# (ldd's list taken whole first: `ldd | grep -q` under pipefail failed whenever grep's early exit
# cut ldd off with SIGPIPE, and the scenario then ran, and failed, in the sanitized suite.)
libraries=$(ldd "$CUDNN_COMPAT" 2>/dev/null || true)
[[ $libraries != *libasan* ]] ||
  skip "a sanitized build: AddressSanitizer needs /proc (its stack bounds, LeakSanitizer's threads)"
export FAKE_NVML_GPUS=7.0 FAKE_NVML_DRIVER=12020
command -v unshare >/dev/null || skip "no unshare (util-linux)"
# A mount namespace of its own (root, else an unprivileged user namespace) with an empty /proc.
unshare -m true 2>/dev/null && ns=(unshare -m) || ns=(unshare -rm)
"${ns[@]}" true 2>/dev/null || skip "no mount namespace here (unshare -m, unshare -rm)"
no_proc() { "${ns[@]}" bash -c 'mount -t tmpfs none /proc && exec "$@"' no_proc "$@"; }

expect_rc 0 no_proc "$CUDNN_COMPAT" resolve libcudnn.so.9
has "libcudnn.so.9 -> $t/volta/lib64/libcudnn.so.9"
has "carries no code for compute capability 7.0"
lacks "not known"

bindir=$(dirname "$CUDNN_COMPAT")
expect_rc 0 env PATH="$bindir:$PATH" bash -c "$(declare -f no_proc); ns=(${ns[*]}); no_proc cudnn-compat resolve libcudnn.so.9"
has "note: cannot find this program's own file (no /proc/self/exe, and it was run as \"cudnn-compat\""
has "note: this node's GPUs and driver are not known (the NVML probe did not start: cannot run"
has "this answer ignores them. Give them: CUDNN_COMPAT_GPU_ARCH=X.Y[,X.Y...] CUDNN_COMPAT_DRIVER_CUDA=X.Y"
count "not known" 1
# The overrides given: nothing to say of the node, and the answer is the V100's.
expect_rc 0 env PATH="$bindir:$PATH" CUDNN_COMPAT_GPU_ARCH=7.0 CUDNN_COMPAT_DRIVER_CUDA=12.2 \
  bash -c "$(declare -f no_proc); ns=(${ns[*]}); no_proc cudnn-compat resolve libcudnn.so.9"
lacks "not known"
has "libcudnn.so.9 -> $t/volta/lib64/libcudnn.so.9"
