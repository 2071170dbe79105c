# resolve --gpu X.Y --driver X.Y answers for a node one is not on, from the device code the
# FAKE releases' libraries carry (nvcc's sm_75, sm_80 and PTX 9.0; written sm_60 and sm_70).
source "$(dirname "$0")/common.sh"
two_releases
expect_rc 0 "$CUDNN_COMPAT" map validate "$t/map.toml"
has "cuDNN 9.0.0 in $t/volta/lib64 (CUDA 12.2) runs on compute capability 6.0 6.1 6.2 7.0 7.2 7.5;"
has "cuDNN 9.1.0 in $t/turing/lib64 (CUDA 12.4) runs on compute capability 7.5 8.0 8.6 8.7 8.8 8.9 9.0 10.0 10.1 10.3 11.0 12.0 12.1;"
grep -q "^run	1	75,80,86,87,88,89,90,100,101,103,110,120,121	12000$" "$t/map.toml.decide" ||
  fail "no run row for turing in the decision table:"$'\n'"$(cat "$t/map.toml.decide")"

expect_rc 0 "$CUDNN_COMPAT" resolve libcudnn.so.9 --gpu 7.0 --driver 12.2
has "libcudnn.so.9 -> $t/volta/lib64/libcudnn.so.9"
has "its libcudnn_cnn.so.9 carries no code for compute capability 7.0 (sm_75 80, PTX 90)"
expect_rc 0 "$CUDNN_COMPAT" resolve libcudnn.so.9 --gpu 8.6 --driver 12.2
has "-> $t/turing/lib64/libcudnn.so.9"
# PTX 9.0 is compiled by the driver for a Blackwell; the written sm_70 cubin serves a Turing too.
expect_rc 0 "$CUDNN_COMPAT" resolve libcudnn.so.9 --gpu 12.0 --driver 12.8
has "-> $t/turing/lib64/libcudnn.so.9"
expect_rc 0 "$CUDNN_COMPAT" resolve libcudnn.so.9 --gpu 7.5 --json
has '"gpus": "7.5"'
# A node with both GPUs, or a driver too old for CUDA 12: nothing fits, and why.
expect_rc 1 "$CUDNN_COMPAT" resolve libcudnn.so.9 --gpu 7.0,8.0 --driver 12.2
has "carries no code for compute capability 8.0 (sm_60 70)"
expect_rc 1 "$CUDNN_COMPAT" resolve libcudnn.so.9 --gpu 8.0 --driver 11.8
has "it is built for CUDA 12.4 and this node's driver runs CUDA 11.8 (--gpu)"
# Bad and contradictory values: bad usage, one line.
expect_rc 2 "$CUDNN_COMPAT" resolve libcudnn.so.9 --gpu seven
has '--gpu="seven": "seven" is not a compute capability'
# The one X.Y every reader of the overrides and the node file takes (the engine alone took a
# space, a 'v', two digits after the dot and leading zeros; the hooks passed them over).
for bad in " 7.0" "7.0, 8.0"; do
  expect_rc 2 "$CUDNN_COMPAT" resolve libcudnn.so.9 --gpu "$bad" --driver 12.2
  has "is not a compute capability"
done
for bad in v12.4 12.40 012.4 " 12.4"; do
  expect_rc 2 "$CUDNN_COMPAT" resolve libcudnn.so.9 --gpu 7.0 --driver "$bad"
  has "is not a CUDA version"
done
expect_rc 2 "$CUDNN_COMPAT" resolve libcudnn.so.9 --gpu 12.0 --driver 11.8
has "contradict each other: a GPU of compute capability 12.0 needs a driver of CUDA 12.8 or newer"
