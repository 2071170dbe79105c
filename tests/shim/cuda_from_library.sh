# A map entry that names no CUDA takes the CUDA its library reports (cuDNN 6 on): FAKE 9.1.0 says
# CUDA 12.4. With a CUDA need (CUDNN_COMPAT_CUDA, --cuda) it was passed over as "CUDA unknown" by
# resolve and by the shim, while doctor, which asks the library, said it fits (an outside tester's
# finding). Now resolve, the engine (no table) and the decision table (validated) agree, under both
# front ends; a CUDA the library does not report still fits nothing.
source "$(dirname "$0")/common.sh"
family_client
fake_map 9.0.0 9.1.0 >"$t/map.toml"
grep -q cuda "$t/map.toml" && fail "the map names a CUDA"
export CUDNN_COMPAT_MAP=$t/map.toml
cp -a "$FAKES/9.0.0" "$t/own"
export LD_LIBRARY_PATH=$t/own/lib64 CUDNN_COMPAT_REQUIRE=9.1

expect_rc 0 "$CUDNN_COMPAT" resolve libcudnn.so.9 --cuda 12
has "-> $FAKES/9.1.0/lib64/libcudnn.so.9"
expect_rc 1 "$CUDNN_COMPAT" resolve libcudnn.so.9 --cuda 11
has "built for CUDA 12.4, not CUDA 11"

for table in none validated; do
  [[ $table == validated ]] && expect_rc 0 "$CUDNN_COMPAT" map validate "$CUDNN_COMPAT_MAP"
  for mode in audit preload; do
    CUDNN_COMPAT_CUDA=12 expect_rc 0 $mode "$t/family" libcudnn.so.9
    has "loaded $FAKES/9.1.0/lib64/libcudnn.so.9"
    lacks "cudnn-compat:"
    CUDNN_COMPAT_CUDA=11 expect_rc 0 $mode "$t/family" libcudnn.so.9
    has "loaded $t/own/lib64/libcudnn.so.9"
    has "built for CUDA 12.4, not CUDA 11"
  done
done

# A map that names a CUDA its library contradicts (cuda = "11.8" for FAKE 9.1.0, which says 12.4):
# the library's word counts for resolve as for the engine and the table (resolve went by the
# map's, the engine by the library's: an outside tester's finding); map validate --probe says so.
fake_map 9.0.0 9.1.0 | sed '/version = "9.1.0"/a cuda = "11.8"' >"$t/map.toml"
grep -q 'cuda = "11.8"' "$t/map.toml" || fail "the map names no CUDA"
expect_rc 0 "$CUDNN_COMPAT" resolve libcudnn.so.9 --cuda 12
has "-> $FAKES/9.1.0/lib64/libcudnn.so.9"
expect_rc 1 "$CUDNN_COMPAT" resolve libcudnn.so.9 --cuda 11
has "built for CUDA 12.4, not CUDA 11"
for mode in audit preload; do
  CUDNN_COMPAT_CUDA=12 expect_rc 0 $mode "$t/family" libcudnn.so.9
  has "loaded $FAKES/9.1.0/lib64/libcudnn.so.9"
done
