# A conda framework's CUDA need is its record's `cuda-version` (or `cudatoolkit`) dependency, as a
# wheel's is its -cu12 name: a cuda126 build of a framework needs a cuDNN for CUDA 12. The tool of
# 44ffd82 read no CUDA from it, and handed such a framework, its environment's FAKE 9.1.0 too old,
# the oldest fitting release of the map: the system's cuDNN 9.19 for CUDA 13 (helper 105 r04).
# Where that real cuDNN is installed it is now passed over for FAKE 9.20.0 (CUDA 12.9).
source "$(dirname "$0")/common.sh"
conda_env "$t/conda" 9.1.0
record=$t/conda/conda-meta/tensorflow-base-2.15.0-cuda120py311.json
sed -i 's/"cudnn >=9.1.0,<10.0a0"/"cudnn >=9.19,<10.0a0", "cuda-version >=12.6,<13"/' "$record"
grep -q cuda-version "$record" || fail "the record was not edited: $(cat "$record")"
lib=$t/conda/lib/libtf_conda.so
export CONDA_PREFIX=$t/conda
real=/usr/local/cuda/lib64
{
  printf 'schema = 1\n[policy]\nprefer = "oldest"\n'
  [[ ! -e $real/libcudnn.so.9 ]] ||
    printf '[[cudnn]]\nversion = "9.19.0"\nlib = "%s"\n' "$(dirname "$(readlink -f "$real/libcudnn.so.9")")"
  printf '[[cudnn]]\nversion = "9.20.0"\nlib = "%s"\n' "$FAKES/9.20.0/lib64"
} >"$t/map.toml"
expect_rc 0 cc resolve libcudnn.so.9 --for "$lib"
has "cuDNN 9.19 for CUDA 12"
has "libcudnn.so.9 -> $FAKES/9.20.0/lib64/libcudnn.so.9"
