# The framework's pin is the need: a library of a distribution whose METADATA pins
# nvidia-cudnn-cu12==9.20.0.48 asks for libcudnn.so.9 with a module's cuDNN 9.0.0 first on
# LD_LIBRARY_PATH (searched before its RUNPATH: pytorch#80637). Without the shim it gets 9.0.0;
# with it, the wheel its pin names, under PyTorch's rule, from C and from ctypes, under both
# front ends - with no map and no CUDNN_COMPAT_REQUIRE. An explicit requirement still wins.
source "$(dirname "$0")/common.sh"
make_venv "$t/venv"
python=$t/venv/bin/python
wheel_cudnn "$site" 9.20.0
framework "$site" torch 2.6.0 "nvidia-cudnn-cu12==9.20.0.48"
lib=$site/torch/lib/libtorch_cuda.so
export LD_LIBRARY_PATH=$FAKES/9.0.0/lib64

redirected "$lib" 90000 92000 "$site/nvidia/cudnn/lib" 9

CUDNN_COMPAT_DEBUG=1 expect_rc 0 audit py_client "$lib"
has "cudnn-compat: libcudnn.so.9 -> $site/nvidia/cudnn/lib/libcudnn.so.9 (wheel 9.20.0.48; needs 9.20.0 for CUDA 12 from the pin of torch 2.6.0: nvidia-cudnn-cu12==9.20.0.48"
has "9.0.0 on LD_LIBRARY_PATH does not fit"

# CUDNN_COMPAT_REQUIRE still wins over the pin.
CUDNN_COMPAT_REQUIRE=9.0 expect_rc 0 audit c_client "$lib"
has "version 90000"

# A pin nothing installed meets is met in the environment itself: the line says how before it
# sends the user to the admins (helper 94: only "Ask the admins for cuDNN 9.30").
sed -i 's/==9.20.0.48/==9.30.0.1/' "$site"/torch-2.6.0.dist-info/METADATA
expect_rc 0 audit py_client "$lib"
has "no installed cuDNN fits"
has "In its environment: pip install 'nvidia-cudnn-cu12==9.30.0.1'; or ask the admins for cuDNN 9.30"
