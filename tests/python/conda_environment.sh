# A conda environment: cuDNN in $CONDA_PREFIX/lib with conda-meta/cudnn-<version>-<build>.json,
# and a framework package whose conda-meta record depends on cudnn >=9.23.0. Its library asks for
# libcudnn.so.9 with a module's 9.0.0 first on LD_LIBRARY_PATH: the shim hands it the conda env's
# cuDNN, its need from the conda package's depends, under TensorFlow's rule; from C and ctypes,
# under both front ends, with no map.
source "$(dirname "$0")/common.sh"
conda_env "$t/conda" 9.23.0
lib=$t/conda/lib/libtf_conda.so
export LD_LIBRARY_PATH=$FAKES/9.0.0/lib64

redirected "$lib" 90000 92300 "$t/conda/lib" 9
CUDNN_COMPAT_DEBUG=1 expect_rc 0 audit c_client "$lib"
# Its build string (cuda120py311) says the CUDA it needs (helper 106).
has "cudnn-compat: libcudnn.so.9 -> $t/conda/lib/libcudnn.so.9 (conda 9.23.0.48; needs 9.23.0 for CUDA 12 from the pin of tensorflow-base 2.15.0: cudnn >=9.23.0,<10.0a0 in $t/conda/conda-meta/tensorflow-base-2.15.0-cuda120py311.json"
