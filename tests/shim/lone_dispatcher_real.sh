# A copy of the real cuDNN 9's dispatcher alone in a directory first on LD_LIBRARY_PATH, its family
# in ld.so.cache's place under names that carry the major alone (libcudnn_graph.so.9): the host
# runs without the shim, and with it the shim refused the sub-libraries it could not place by
# release - cuDNN's dispatcher then aborted the host (an outside tester's finding). The loader's own
# files are taken: their place's own dispatcher, probed, says the family's release, so nothing is
# said (it was one line, "whose file names no release", before the place was asked).
source "$(dirname "$0")/common.sh"
real_cudnn9
[[ -e $real/libcudnn_graph.so.9 && ! -L $real/libcudnn_graph.so.9 ]] ||
  skip "the real cuDNN's libcudnn_graph.so.9 is named for its release here"
ldconfig -p | grep -q "libcudnn_graph.so.9 " || skip "no cuDNN 9 family in ld.so.cache"
mkdir "$t/lone" && cp "$real/libcudnn.so.9" "$t/lone/"
export LD_LIBRARY_PATH=$t/lone
expect_rc 0 "$t/family" libcudnn.so.9 cudnnGraphVersionCheck
has "version $v"
for mode in audit preload; do
  expect_rc 0 $mode "$t/family" libcudnn.so.9 cudnnGraphVersionCheck
  has "version $v"
  has "cudnnGraphVersionCheck = 0"
  lacks "cudnn-compat:"
done
