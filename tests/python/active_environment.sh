# resolve and doctor know the active environment without any map: the virtualenv of
# $VIRTUAL_ENV, the conda env of $CONDA_PREFIX, and a program's own environment (--for), each
# place with its source.
source "$(dirname "$0")/common.sh"
make_venv "$t/venv"
wheel_cudnn "$site" 9.20.0
conda_env "$t/conda" 9.23.0
unset CUDNN_COMPAT_MAP  # and none at <prefix>/etc or /etc: the build tree has none
[[ ! -e /etc/cudnn-compat/map.toml ]] || skip "this host has /etc/cudnn-compat/map.toml"

expect_rc 1 cc resolve libcudnn.so.9   # no map, no environment: nothing to answer from
# (A need the system's own cuDNN, if any, does not meet: where the loader's file fits, the shim
# keeps it, and resolve says so.)
VIRTUAL_ENV=$t/venv expect_rc 0 cc resolve libcudnn.so.9 --require 9.20
has "-> $site/nvidia/cudnn/lib/libcudnn.so.9"
has "source: wheel"
CONDA_PREFIX=$t/conda expect_rc 0 cc resolve libcudnn.so.9 --require 9.23 --json
has "\"file\": \"$t/conda/lib/libcudnn.so.9\""
has '"source": "conda"'
# The program's own environment: the conda package's library.
expect_rc 0 cc resolve libcudnn.so.9 --for "$t/conda/lib/libtf_conda.so"
has "source: conda"
has "the pin of tensorflow-base 2.15.0: cudnn >=9.23.0,<10.0a0"
