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
# Said in words, not as a finding: a cuDNN failure of another kind is named with where to look,
# not "no cuDNN error" (helper 105 r06).
expect_rc 1 cc explain "Could not create cudnn handle: CUDNN_STATUS_INTERNAL_ERROR"
has "found no cuDNN version error in the 58 bytes read; line 1 is a cuDNN failure of another kind (CUDNN_STATUS_INTERNAL_ERROR)"
has "run \`cudnn-compat doctor\` where the job ran"
expect_rc 1 cc explain "DNN library initialization failed. Look at the errors above for more details."
has "(cuDNN did not initialise)"
expect_rc 1 cc explain "epoch 3/10 loss 0.21"
has "found no cuDNN error in the 20 bytes read"
