# An absolute path is the program's own choice: a path that does not exist stays a failing load
# (programs test for cuDNN that way), with no requirement and with one; a path that exists and
# fits is kept; only a path that would load a misfit is redirected.
source "$(dirname "$0")/common.sh"
family_client
fake_map 5.0.5 5.1.10 >"$t/map.toml"
for mode in audit preload; do
  for validate in no yes; do
    [[ $validate == yes ]] && "$CUDNN_COMPAT" map validate "$t/map.toml" >/dev/null
    expect_rc 1 $mode "$t/family" "$t/nowhere/libcudnn.so.5"
    has "dlopen: $t/nowhere/libcudnn.so.5: cannot open shared object file"
    lacks "version"
    CUDNN_COMPAT_REQUIRE=5.1 expect_rc 1 $mode "$t/family" "$t/nowhere/libcudnn.so.5"
    has "cannot open shared object file"
    CUDNN_COMPAT_REQUIRE=5.0 expect_rc 0 $mode "$t/family" "$FAKES/5.0.5/lib64/libcudnn.so.5"
    has "version 5005"
    CUDNN_COMPAT_REQUIRE=5.1 expect_rc 0 $mode "$t/family" "$FAKES/5.0.5/lib64/libcudnn.so.5"
    has "version 5110"
  done
  rm -f "$t/map.toml.decide" "$t/map.toml.cache" "$t/map.toml.fits"
done
