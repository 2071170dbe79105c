# cuDNN 8, sub-libraries included: a program built with 8.9 finds FAKE 8.1.0 first on
# LD_LIBRARY_PATH. With the shim the dispatcher comes from FAKE 8.9.7 and so does every one of its
# six sub-libraries, although 8.1.0's are earlier on the path.
source "$(dirname "$0")/common.sh"
family_client
fake_map 8.1.0 8.9.7 >"$t/map.toml"
export LD_LIBRARY_PATH=$FAKES/8.1.0/lib64:$FAKES/8.9.7/lib64 CUDNN_COMPAT_REQUIRE=8.9

expect_rc 0 "$t/family" libcudnn.so.8 cudnnOpsInferVersionCheck
has "version 8100"

for mode in audit preload; do
  expect_rc 0 $mode "$t/family" libcudnn.so.8 cudnnOpsInferVersionCheck cudnnOpsTrainVersionCheck \
    cudnnCnnInferVersionCheck
  has "version 8907"
  has "cudnnCnnInferVersionCheck = 0"
  count "loaded $FAKES/8.9.7/lib64/" 4  # the dispatcher and the three sub-libraries checked
  lacks "8.1.0"
done
