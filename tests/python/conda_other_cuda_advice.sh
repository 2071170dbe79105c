# A conda environment whose cudnn meets the framework's spec but is built for another CUDA (cudnn
# 9.20.0 for CUDA 12; the framework, cuda118, needs CUDA 11): `conda install 'cudnn >=9.20...'` is
# a no-op there ("already satisfied"), so the shim's line names the CUDA (helper 110; doctor, for a
# framework library that links cuDNN, gives the same fix: /work/outside/h112/repro112_conda_noop_advice.sh).
source "$(dirname "$0")/common.sh"
conda_env "$t/conda" 9.20.0
old=$t/conda/conda-meta/tensorflow-base-2.15.0-cuda120py311.json
sed 's/"build": "cuda120py311"/"build": "cuda118py311"/' "$old" \
  >"$t/conda/conda-meta/tensorflow-base-2.15.0-cuda118py311.json"
rm "$old"
lib=$t/conda/lib/libtf_conda.so
export CONDA_PREFIX=$t/conda
printf 'schema = 1\n[[cudnn]]\nversion = "9.23.0"\nlib = "%s"\n' "$FAKES/9.23.0/lib64" >"$t/map.toml"
expect_rc 0 audit c_client "$lib"
has "In its environment: conda install 'cudnn >=9.20.0,<10.0a0' 'cuda-version=11'"
