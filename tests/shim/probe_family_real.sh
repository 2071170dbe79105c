# The headline case: `module load cudnn/9.0` put a cuDNN 9.0 on LD_LIBRARY_PATH, the program needs
# the real cuDNN 9.19 under /usr/local/cuda that the map lists. The probe must load 9.19 with its
# own family (not 9.0's sub-libraries off the job's path), so the engine hands it over.
source "$(dirname "$0")/common.sh"
real_cudnn9
release="$(( v / 10000 )).$(( v / 100 % 100 )).$(( v % 100 ))"
printf 'schema = 1\n[[cudnn]]\nversion = "%s"\nlib = "%s"\n[[cudnn]]\nversion = "9.0.0"\nlib = "%s"\n' \
  "$release" "$real" "$FAKES/9.0.0/lib64" >"$t/map.toml"
export LD_LIBRARY_PATH=$FAKES/9.0.0/lib64 CUDNN_COMPAT_REQUIRE=${release%.*}

expect_rc 0 "$t/family" libcudnn.so.9
has "version 90000"

expect_rc 0 "$CUDNN_COMPAT" probe --json "$real"
has '"source": "library"'

for mode in audit preload; do
  expect_rc 0 $mode "$t/family" libcudnn.so.9 cudnnGraphVersionCheck cudnnOpsVersionCheck \
    cudnnCnnVersionCheck cudnnAdvVersionCheck
  has "version $v"
  has "cudnnAdvVersionCheck = 0"
  count "loaded $real/libcudnn" 5
  lacks "$FAKES/9.0.0"
done
