# A name that carries a major is only ever served by that major: with 5.1 required, a request
# for libcudnn.so.8 or libcudnn.so.9 is not handed a cuDNN 5 (nor the other way round); the
# mismatch costs one line and the load the process would have done.
source "$(dirname "$0")/common.sh"
family_client
fake_map 5.0.5 5.1.10 8.9.7 9.1.0 >"$t/map.toml"
for mode in audit preload; do
  for validate in no yes; do
    [[ $validate == yes ]] && "$CUDNN_COMPAT" map validate "$t/map.toml" >/dev/null
    CUDNN_COMPAT_REQUIRE=5.1 LD_LIBRARY_PATH=$FAKES/8.9.7/lib64 expect_rc 0 $mode "$t/family" libcudnn.so.8
    has "version 8907"
    count "cudnn-compat:" 1
    has "the program asks for cuDNN 8 by name, which only a cuDNN 8 can serve"
    CUDNN_COMPAT_REQUIRE=9.1 LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 expect_rc 0 $mode "$t/family" libcudnn.so.5
    has "version 5005"
    lacks "version 9"
    # Nothing on the path: the request fails as it would without the shim.
    CUDNN_COMPAT_REQUIRE=5.1 expect_rc 1 $mode "$t/family" libcudnn.so.8
    has "dlopen: libcudnn.so.8: cannot open shared object file"
  done
  rm -f "$t/map.toml.decide" "$t/map.toml.cache" "$t/map.toml.fits"
done
