# Bad input: a fatbin cut short, one forged, a library without device code, contradictory
# overrides. One clear line each, and the release is handed over as before (not judged on GPUs).
source "$(dirname "$0")/common.sh"
fake_release cut 9.0.0
fake_release forged 9.1.0
"$GPU_TEST_DIR/write-fatbin" "$t/cut.fatbin" cubin:70 cubin:80 cut:100
"$GPU_TEST_DIR/write-fatbin" "$t/forged.fatbin" cubin:75 magic:deadbeef
attach "$t/cut/lib64/libcudnn_cnn.so.9.0.0" "$t/cut.fatbin"
attach "$t/forged/lib64/libcudnn_ops.so.9.1.0" "$t/forged.fatbin"
map_of cut:9.0.0:12.2 forged:9.1.0:12.4 >"$t/map.toml"
expect_rc 0 "$CUDNN_COMPAT" map validate "$t/map.toml"
has "cuDNN 9.0.0 for CUDA 12.2: $t/cut/lib64/libcudnn_cnn.so.9: .nv_fatbin: a container at byte 0 of 192 bytes is cut short: the section ends after 100 bytes"
has "cuDNN 9.1.0 for CUDA 12.4: $t/forged/lib64/libcudnn_ops.so.9: .nv_fatbin: no fatbin container at byte 0 (magic 0xdeadbeef, not 0xba55ed50)"
count ": warning: " 2
has "0 error(s), 2 warning(s)"
# Not judged on GPUs: the newest fits a Volta as it did before the map knew of GPUs.
expect_rc 0 "$CUDNN_COMPAT" resolve libcudnn.so.9 --gpu 7.0 --driver 12.2
has "-> $t/forged/lib64/libcudnn.so.9"

# A release none of whose libraries carries device code (every FAKE without a fatbin).
map_of forged:9.1.0:12.4 >"$t/map.toml"
rm -rf "$t/forged" && fake_release forged 9.1.0
expect_rc 0 "$CUDNN_COMPAT" map validate "$t/map.toml"
lacks "runs on compute capability"
expect_rc 0 "$CUDNN_COMPAT" resolve libcudnn.so.9 --gpu 7.0 --driver 12.2
has "-> $t/forged/lib64/libcudnn.so.9"

# Contradictory and malformed overrides in a job: one line, the ordinary load.
client
export LD_LIBRARY_PATH=$t/forged/lib64
CUDNN_COMPAT_GPU_ARCH=12.0 CUDNN_COMPAT_DRIVER_CUDA=11.8 expect_rc 0 env LD_AUDIT="$SHIM" "$t/client"
has "loaded $t/forged/lib64/libcudnn.so.9"
has "cudnn-compat: libcudnn.so.9: this node's GPUs and driver are not known (CUDNN_COMPAT_GPU_ARCH=12.0 and CUDNN_COMPAT_DRIVER_CUDA=11.8 contradict each other"
count "cudnn-compat:" 1
CUDNN_COMPAT_GPU_ARCH=sm_70 expect_rc 0 env LD_AUDIT="$SHIM" "$t/client"
has "loaded $t/forged/lib64/libcudnn.so.9"
has 'CUDNN_COMPAT_GPU_ARCH="sm_70": "sm_70" is not a compute capability'
count "cudnn-compat:" 1
# A newline in the list: no reader takes its first line alone (the shim's fast path took 7.0 of
# "7.0\n8.0" and judged the node by it, where the engine refuses the value).
CUDNN_COMPAT_GPU_ARCH=$'7.0\n8.0' CUDNN_COMPAT_DRIVER_CUDA=12.2 expect_rc 0 env LD_AUDIT="$SHIM" "$t/client"
has "loaded $t/forged/lib64/libcudnn.so.9"
has 'is not a compute capability'
count "cudnn-compat:" 1
