# The real cuDNN 9 under /usr/local/cuda. A FAKE sub-library sits earlier on LD_LIBRARY_PATH under
# the exact name the real dispatcher asks for first (libcudnn_graph.so.9.<minor>.<patch>). Without
# the shim the process mixes the family; with it every libcudnn_* comes from the real directory and
# the real sub-library version checks pass.
source "$(dirname "$0")/common.sh"
real_cudnn9
exact="libcudnn_graph.so.9.$(( v / 100 % 100 )).$(( v % 100 ))"
mkdir "$t/stray"
cp "$FAKES/9.1.0/lib64/libcudnn_graph.so.9.1.0" "$t/stray/$exact"
export LD_LIBRARY_PATH=$t/stray:$real

# The real dispatcher takes the stray file and aborts (SIGABRT) when it looks for its symbols.
expect_rc 134 "$t/family" libcudnn.so.9 cudnnGraphVersionCheck
has "$t/stray/$exact: undefined symbol"

for mode in audit preload; do
  expect_rc 0 $mode "$t/family" libcudnn.so.9 cudnnGraphVersionCheck cudnnOpsVersionCheck \
    cudnnCnnVersionCheck cudnnAdvVersionCheck
  has "cudnnGraphVersionCheck = 0"
  has "cudnnAdvVersionCheck = 0"
  lacks "$t/stray"
  count "loaded $real/libcudnn" 5
done
