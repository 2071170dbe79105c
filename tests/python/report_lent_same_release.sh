# A sub-library a wheel lacks, lent by the shim from another environment's wheel of the same
# release (the map, as `scan --python` writes it, lists both): the family is whole and cuDNN is
# content, and the exit report says so - it said "MIXED cuDNN family: 9.20.0 ... and an unknown
# release", the lent file naming no version of its own (helper 109). The map's word on the
# directory is its release.
source "$(dirname "$0")/common.sh"
make_venv "$t/full"
wheel_cudnn "$site" 9.20.0
make_venv "$t/venv"
wheel_cudnn "$site" 9.20.0 engines_tensor_ir
framework "$site" torch 2.6.0 "nvidia-cudnn-cu12==9.20.0.48"
lib=$site/torch/lib/libtorch_cuda.so
cc scan --modules none --python "$t/full" --python "$t/venv" -o "$t/map.toml" >/dev/null 2>&1 ||
  fail "scan --python failed"
export VIRTUAL_ENV=$t/venv
for mode in audit preload; do
  CUDNN_COMPAT_REPORT=1 expect_rc 0 $mode c_client "$lib"
  has "status 0"
  has "report: $t/full/lib/python3"
  lacks "MIXED"
  has "next run: nothing to change"
done
