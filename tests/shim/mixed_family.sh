# Without any map or requirement the shim still cures a mixed family: a directory earlier on
# LD_LIBRARY_PATH holds one sub-library of another release (FAKE 8.1.0's cnn_infer). Without the
# shim cuDNN 8.9.7 loads it and reports CUDNN_STATUS_SUBLIBRARY_VERSION_MISMATCH (status 14).
source "$(dirname "$0")/common.sh"
family_client
mkdir "$t/stray"
cp "$FAKES/8.1.0/lib64/libcudnn_cnn_infer.so.8.1.0" "$t/stray/libcudnn_cnn_infer.so.8"
export LD_LIBRARY_PATH=$t/stray:$FAKES/8.9.7/lib64

expect_rc 3 "$t/family" libcudnn.so.8 cudnnOpsInferVersionCheck cudnnCnnInferVersionCheck
has "cudnnCnnInferVersionCheck = 14"
has "loaded $t/stray/libcudnn_cnn_infer.so.8"

for mode in audit preload; do
  expect_rc 0 $mode "$t/family" libcudnn.so.8 cudnnOpsInferVersionCheck cudnnCnnInferVersionCheck
  has "cudnnCnnInferVersionCheck = 0"
  count "loaded $FAKES/8.9.7/lib64/" 3
  lacks "$t/stray"
done

# One line per decision when asked, the family's among them.
CUDNN_COMPAT_DEBUG=1 expect_rc 0 audit "$t/family" libcudnn.so.8 cudnnCnnInferVersionCheck
has "cudnn-compat: libcudnn_cnn_infer.so.8 -> $FAKES/8.9.7/lib64/libcudnn_cnn_infer.so.8 (the family of $FAKES/8.9.7/lib64)"
