# The GPU's architecture and the driver are read as what they are, with the node facts the log
# gives and the resolve command for that node: never as a cuDNN version problem.
source "$(dirname "$0")/common.sh"
printf '%s\n' \
  '| NVIDIA-SMI 535.104.05   Driver Version: 535.104.05   CUDA Version: 12.2     |' \
  'Found GPU0 Tesla V100-SXM2-16GB which is of cuda capability 7.0.' \
  'F0327 cudnn_conv_layer.cpp:53] Check failed: status == CUDNN_STATUS_SUCCESS (6 vs. 0)  CUDNN_STATUS_ARCH_MISMATCH' >"$t/arch.log"
expect_rc 0 cc --json explain <"$t/arch.log"
has '"kind": "arch-mismatch"'
has '"gpu": "7.0"'
has '"driver": "12.2"'
has 'cudnn-compat resolve --gpu 7.0 --driver 12.2'
lacks 'version-mismatch'
expect_rc 0 cc explain 'cudaGetDevice() failed. Status: CUDA driver version is insufficient for CUDA runtime version (cuDNN 8.1.0)'
has "what happened: the node's NVIDIA driver is older than the CUDA"
has 'fix: cudnn-compat resolve --gpu <X.Y> --driver <X.Y>'
lacks 'loaded cuDNN'
