# pytorch#188892 as reported: the wheel family of 9.20.0 lacks libcudnn_engines_tensor_ir.so.9,
# and a whole 9.23.0 sits in the system's library directory. The framework's library finds the
# wheel's dispatcher through its RUNPATH ($ORIGIN/../../nvidia/cudnn/lib); that dispatcher finds
# its other sub-libraries beside itself and the missing one in the system's directory. Without
# the shim: two releases; with it, one, from C and from ctypes, under both front ends.
source "$(dirname "$0")/common.sh"
make_venv "$t/venv"
wheel_cudnn "$site" 9.20.0 engines_tensor_ir
framework "$site" torch 2.6.0 "nvidia-cudnn-cu12==9.20.0.48"
lib=$site/torch/lib/libtorch_cuda.so wheel=$site/nvidia/cudnn/lib
mkdir "$t/system"
cp -P "$FAKES/9.23.0/lib64/"libcudnn_engines_tensor_ir* "$t/system/"

expect_rc 3 in_system_dir "$t/system" "$t/venv/bin/python" -c 'import ctypes, sys
sys.exit(3 if ctypes.CDLL(sys.argv[1]).framework_load(b"") else 0)' "$lib"
has "status 1002"
has "loaded /usr/lib/x86_64-linux-gnu/libcudnn_engines_tensor_ir.so.9"
[[ $(dirs_loaded) == 2 ]] || fail "expected two releases without the shim:"$'\n'"$out"

c_client "$lib" >/dev/null 2>&1 || true  # builds $t/client outside the namespace
for mode in AUDIT PRELOAD; do
  for client in "$t/client" "$t/venv/bin/python $t/load.py"; do
    expect_rc 3 in_system_dir "$t/system" env LD_$mode="$SHIM" $client "$lib"
    has "status 1008"
    [[ $(dirs_loaded) == 1 ]] || fail "LD_$mode $client: more than one release:"$'\n'"$out"
    lacks "loaded /usr/lib/x86_64-linux-gnu/libcudnn"
    # The directory as the loader reached it, through the framework's RUNPATH.
    has "cudnn-compat: libcudnn_engines_tensor_ir.so.9 is not in $site/torch/lib/../../nvidia/cudnn/lib"
  done
done
