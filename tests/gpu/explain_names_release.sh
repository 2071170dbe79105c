# explain reads the GPU and driver messages of issue 22 and names the installed release that runs
# on the GPU and driver the message names, judged on the releases' own device code: FAKE 9.0.0
# (cudnn/9.0: sm_60, sm_70 cubins, CUDA 12.2) and 9.1.0 (cudnn/9.1: sm_75, sm_80, CUDA 12.4).
source "$(dirname "$0")/common.sh"
[[ -x $GPU_TEST_DIR/write-fatbin ]] || skip "no write-fatbin at $GPU_TEST_DIR"
unset LOADEDMODULES _LMFILES_ LMOD_CMD MODULESHOME
fake_release volta 9.0.0
fake_release turing 9.1.0
"$GPU_TEST_DIR/write-fatbin" "$t/volta.fatbin" cubin:60 cubin:70
"$GPU_TEST_DIR/write-fatbin" "$t/turing.fatbin" cubin:75 cubin:80
attach "$t/volta/lib64/libcudnn_cnn.so.9.0.0" "$t/volta.fatbin"
attach "$t/turing/lib64/libcudnn_cnn.so.9.1.0" "$t/turing.fatbin"
{
  map_of volta:9.0.0:12.2 turing:9.1.0:12.4
} | awk -v a=cudnn/9.0 -v b=cudnn/9.1 '{print} /^cuda = "12.2"$/{print "module = \"" a "\""} /^cuda = "12.4"$/{print "module = \"" b "\""}' >"$t/map.toml"

expect_rc 0 "$CUDNN_COMPAT" explain "Could not run the convolution: CUDNN_STATUS_ARCH_MISMATCH (compute capability 7.0 is not supported)"
has "CUDNN_STATUS_ARCH_MISMATCH"
has "module load cudnn/9.0   # cuDNN 9.0.0: runs on compute capability 7.0"
lacks "cudnn/9.1   #"

expect_rc 0 "$CUDNN_COMPAT" explain "RuntimeError: CUDA error: no kernel image is available for execution on the device (GPU with compute capability 8.0)"
has "module load cudnn/9.1   # cuDNN 9.1.0: runs on compute capability 8.0"
lacks "cudnn/9.0   #"

expect_rc 0 "$CUDNN_COMPAT" explain "compute capability 7.0 is not supported"
has "module load cudnn/9.0   # cuDNN 9.0.0: runs on compute capability 7.0"

# The driver: PyTorch names the CUDA it runs (11.8): neither CUDA 12 build runs there.
expect_rc 0 "$CUDNN_COMPAT" explain "The NVIDIA driver on your system is too old (found version 11080)"
lacks "module load cudnn/"
has "cudnn-compat resolve --gpu <X.Y> --driver 11.8"
expect_rc 0 "$CUDNN_COMPAT" explain "CUDA driver version is insufficient for CUDA runtime version"
has "cudnn-compat resolve --gpu <X.Y> --driver <X.Y>"
