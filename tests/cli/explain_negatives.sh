# Errors about other things that mention cuDNN - out of memory, cuBLAS, TensorRT's Myelin naming
# its own libraries - are never explained as a cuDNN version problem: explain finds nothing.
source "$(dirname "$0")/common.sh"
printf '%s\n' \
  'RuntimeError: cuDNN error: CUDNN_STATUS_EXECUTION_FAILED' \
  'RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB (cuDNN 8.9.7)' \
  '[TRT] [W] TensorRT was linked against cuBLAS/cuBLAS LT 11.8.0 but loaded cuBLAS/cuBLAS LT 11.5.1' \
  'Error Code 1: Myelin (myelinVersionMismatch : Compiled against cuDNN 11.4.1.0 but running against cuDNN 11.2.1.0.' >"$t/log"
expect_rc 1 cc --json explain <"$t/log"
lacks "version-mismatch"
has "[]"
