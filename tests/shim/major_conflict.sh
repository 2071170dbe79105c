# resolve and the shim give one decision for a name of one major and a requirement of another
# (issue 27 item 10): under the rules that accept a newer major (jax, caffe2, paddle) and under
# nvidia's, libcudnn.so.8 asked for with 5.0 or 7.0 required is served by no release - resolve
# says so and advises the requirement to give, and the shim keeps the ordinary load with one line
# saying why, under both front ends, installed and moved. `resolve` of main named 8.9.7 under jax
# and caffe2, which the shim refused.
source "$(dirname "$0")/common.sh"
deployed
family_client
for rule in jax caffe2 paddle nvidia; do
  RULE=$rule fake_map 5.0.5 8.1.0 8.9.7 >"$map"
  expect_rc 0 "$CUDNN_COMPAT" map validate
  for require in 5.0 7.0; do
    expect_rc 1 "$CUDNN_COMPAT" resolve libcudnn.so.8 --require $require
    has "the program asks for cuDNN 8 by name, which only a cuDNN 8 can serve"
    has "The requirement should be the cuDNN 8 release the program was built with"
    lacks "-> "
    for front in AUDIT PRELOAD; do
      expect_rc 0 env LD_LIBRARY_PATH="$FAKES/8.1.0/lib64" CUDNN_COMPAT_REQUIRE=$require \
        "LD_$front=$SHIM" "$t/family" libcudnn.so.8
      has "version 8100"
      count "cudnn-compat:" 1
      has "the program asks for cuDNN 8 by name, which only a cuDNN 8 can serve"
    done
  done
done
