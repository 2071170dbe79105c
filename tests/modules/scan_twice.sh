# One cuDNN release installed twice, as an EasyBuild and a Spack module with their own directories
# (issue 12 item 1), through the real Lmod and the real Environment Modules: scan writes ONE entry
# listing both modules and both directories, `map validate` accepts it, resolve, the fits table and
# the hooks know both modules, and `scan --merge` does not put back a place the admin removed.
source "$(dirname "$0")/common.sh"
[[ -x $lmod_cmd && -f $modulecmd ]] || skip "needs Lmod and Environment Modules (scripts/deps.sh)"
site_tree
eb=$t/site/eb/software/cuDNN/8.9.7.29-CUDA-12.2.0/lib64
sp=$t/site/spack/opt/linux-x86_64/gcc-12.3.0/cudnn-8.9.7.29-12-abcdef/lib64
for system in lmod envmodules; do
  if [[ $system == lmod ]]; then
    site_lmod; module() { lmod_module "$@"; }
  else
    site_tcl; module() { tcl_module "$@"; }
  fi
  map=$t/map-$system.toml
  export CUDNN_COMPAT_MAP=$map
  expect_rc 0 env MODULES_CMD="$modulecmd" "$CUDNN_COMPAT" scan --modules $system -o "$map"
  out=$(cat "$map")
  count 'version = "8.9.7"' 1
  has "lib = [\"$eb\", \"$sp\"]"
  has 'module = ["cuDNN/8.9.7.29-CUDA-12.2.0", "cudnn/8.9.7.29-12-abcdef"]'
  expect_rc 0 "$CUDNN_COMPAT" map validate "$map"
  out=$(cat "$map.fits")
  has $'F\tcudnn/8.9.7.29-12-abcdef\t8.9,cuda=12'
  has $'F\tcuDNN/8.9.7.29-CUDA-12.2.0\t8.9,cuda=12'
  expect_rc 0 "$CUDNN_COMPAT" resolve --require 8.9 libcudnn.so.8
  has "$eb/libcudnn.so.8"
  # The shim's decision table holds both places; modulefiles writes a module for each.
  out=$(cat "$map.decide")
  count "$eb/libcudnn.so.8" 1
  count "$sp/libcudnn.so.8" 1
  expect_rc 0 "$CUDNN_COMPAT" modulefiles --map "$map" --format lua -o "$t/gen-$system"
  [[ -f $t/gen-$system/cudnn/8.9.7.29-12-abcdef.lua && -f $t/gen-$system/cuDNN/8.9.7.29-CUDA-12.2.0.lua ]] ||
    fail "$system: modulefiles did not write both modules of 8.9.7"

  # The hooks know the Spack module's release from the map, as they know EasyBuild's.
  module load GCC/12.3.0 tensorflow/1.0 cudnn/8.9.7.29-12-abcdef || true; msg
  has "tensorflow/1.0 was built with cuDNN 5.1 but cudnn/8.9.7.29-12-abcdef provides 8.9.7"
  module purge
  module load GCC/12.3.0 pytorch/2.1 cudnn/8.9.7.29-12-abcdef; msg
  lacks "was built with"
  module purge

  # The admin keeps only the EasyBuild place; --merge leaves it so and says why.
  sed -i -e "s|^lib = \\[\"$eb\", \"$sp\"\\]\$|lib = \"$eb\"|" \
    -e 's|^module = \["cuDNN/8.9.7.29-CUDA-12.2.0", "cudnn/8.9.7.29-12-abcdef"\]$|module = "cuDNN/8.9.7.29-CUDA-12.2.0"|' "$map"
  grep -qF "lib = \"$eb\"" "$map" || fail "the test's edit of the map did not apply"
  expect_rc 0 env MODULES_CMD="$modulecmd" "$CUDNN_COMPAT" scan --modules $system --merge -o "$map"
  has "cuDNN 8.9.7 for CUDA 12.2 (cudnn/8.9.7.29-12-abcdef) in $sp: the map lists this release in $eb; not added"
  ! grep -qF "$sp" "$map" || fail "$system: --merge put the removed Spack place back"
  expect_rc 0 "$CUDNN_COMPAT" map validate "$map"
done
