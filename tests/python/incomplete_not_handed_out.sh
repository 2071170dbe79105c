# A scanned wheel whose family lacks a sub-library its own libraries name (FAKE 9.20.0 without
# libcudnn_engines_tensor_ir.so.9) beside a whole FAKE 9.23.0, under prefer = "oldest": the
# shim handed the wheel over to a process whose loader took a misfitting 9.1.0, and cuDNN failed
# at its first handle (helper 111). A place is handed over as its directory, so one that lacks a
# member is not handed out: map validate says why and how to mend it, the decision table leaves it
# out, and the engine (a framework's pin) passes it over with its line. Both front ends, C and ctypes.
source "$(dirname "$0")/common.sh"
make_venv "$t/venv"
wheel_cudnn "$site" 9.20.0 engines_tensor_ir
framework "$site" torch 2.6.0 "nvidia-cudnn-cu12==9.20.0.48"
lib=$site/torch/lib/libtorch_cuda.so wheel=$site/nvidia/cudnn/lib
expect_rc 0 cc scan --modules none --python "$t/venv" -o "$t/map.toml"
for v in 9.1.0 9.23.0; do
  printf '[[cudnn]]\nversion = "%s"\nlib = "%s"\n' $v "$FAKES/$v/lib64" >>"$t/map.toml"
done
sed -i 's/^prefer = .*/prefer = "oldest"/' "$t/map.toml"
grep -q '^prefer = "oldest"' "$t/map.toml" || fail "scan wrote no prefer line:"$'\n'"$(cat "$t/map.toml")"
expect_rc 0 cc map validate
has "$wheel/libcudnn.so.9: its directory lacks libcudnn_engines_tensor_ir.so.9, which its own libraries load"
has "reinstall the wheel whole: pip install --force-reinstall, in its environment; not handed out until then"
export LD_LIBRARY_PATH=$FAKES/9.1.0/lib64

handed_whole() {  # CLIENT MODE: the whole 9.23.0 handed over, one release, the handle created
  expect_rc 0 "$2" "$1" "$lib" ""
  has "status 0"
  has "loaded $FAKES/9.23.0/lib64/libcudnn.so.9"
  lacks "loaded $wheel"
  [[ $(dirs_loaded) == 1 ]] || fail "$2 $1: more than one release:"$'\n'"$out"
}
# A process that asks for cuDNN 9.20: the table answers, with no line (CUDNN_STATUS_SUCCESS; the
# wheel's family fails with SUBLIBRARY_LOADING_FAILED, 1008, exit status 240).
client=$BUILD_DIR/bin/fakecudnn-client
for mode in audit preload; do
  CUDNN_COMPAT_REQUIRE=9.20 expect_rc 0 $mode "$client" libcudnn.so.9 cudnnCreate
  lacks "cudnn-compat:"
done
# The framework's pin is the engine's to read: it passes the wheel over, and says why.
for client in c_client py_client; do
  for mode in audit preload; do
    handed_whole $client $mode
    count "cudnn-compat:" 1
    has "$wheel/libcudnn.so.9 (9.20.0.48): its directory lacks libcudnn_engines_tensor_ir.so.9"
  done
done
