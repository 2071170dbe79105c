# Errors about other things that mention cuDNN - out of memory, the driver, the GPU's
# architecture, cuBLAS - are never explained as a cuDNN version problem: explain finds nothing.
source "$(dirname "$0")/common.sh"
printf '%s\n' \
  'RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED' \
  'RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (cuDNN 8.9.7)' \
  'CUDA driver version is insufficient for CUDA runtime version; cuDNN 8.1.0 loaded' \
  'F0327 cudnn_conv_layer.cpp:53] Check failed: status == CUDNN_STATUS_SUCCESS (6 vs. 0)  CUDNN_STATUS_ARCH_MISMATCH' \
  '[TRT] [W] TensorRT was linked against cuBLAS/cuBLAS LT 11.8.0 but loaded cuBLAS/cuBLAS LT 11.5.1' >"$t/log"
expect_rc 1 cc --json explain <"$t/log"
lacks "version-mismatch"
has "[]"
