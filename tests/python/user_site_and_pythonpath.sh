# A framework the system's python imports from the user site (pip install --user) or from
# PYTHONPATH (a module's): resolve --for /usr/bin/python3 answered python's own bare load (the
# system's cuDNN), not torch's, whose pin and RUNPATH decide what the process gets (helper 97).
# Now it answers for that torch, in Python's order: PYTHONPATH, then the user site.
source "$(dirname "$0")/common.sh"
py=/usr/bin/python3  # the system's, whatever python3 comes first on PATH (pyenv's)
[[ -x $py ]] || skip "no $py"
version=$("$py" -c 'import sys; print(f"python{sys.version_info[0]}.{sys.version_info[1]}")')
printf 'schema = 1\n[[cudnn]]\nversion = "9.23.0"\nlib = "%s"\nmodule = "cudnn/9.23"\n' \
  "$FAKES/9.23.0/lib64" >"$t/map.toml"
user_site=$t/home/.local/lib/$version/site-packages
mkdir -p "$user_site"
wheel_cudnn "$user_site" 9.20.0
linking_torch "$user_site" "nvidia-cudnn-cu12==9.23.0.12"
user_torch=$lib
find_torch='import importlib.util as u; print(u.find_spec("torch").origin)'
# The process imports that torch (the user site is on its path).
HOME=$t/home expect_rc 0 "$py" -c "$find_torch"
has "$user_site/torch/__init__.py"
HOME=$t/home expect_rc 0 cc resolve libcudnn.so.9 --for "$py"
has "asked by torch 2.6.0's $user_torch"
has "libcudnn.so.9 -> $FAKES/9.23.0/lib64/libcudnn.so.9"
has "but without the shim the process keeps $user_site/nvidia/cudnn/lib/libcudnn.so.9"
# PYTHONNOUSERSITE: site.py leaves the user site out, and so does resolve.
HOME=$t/home PYTHONNOUSERSITE=1 expect_rc 0 cc resolve libcudnn.so.9 --for "$py"
lacks "asked by torch"
# A module's PYTHONPATH comes first.
apps=$t/apps/torch/lib/$version/site-packages
mkdir -p "$apps"
wheel_cudnn "$apps" 9.1.0
linking_torch "$apps" "nvidia-cudnn-cu12==9.20.0.12"
HOME=$t/home PYTHONPATH=$apps expect_rc 0 "$py" -c "$find_torch"
has "$apps/torch/__init__.py"
HOME=$t/home PYTHONPATH=$apps expect_rc 0 cc resolve libcudnn.so.9 --for "$py"
has "asked by torch 2.6.0's $apps/torch/lib/libtorch_cuda.so"
has "but without the shim the process keeps $apps/nvidia/cudnn/lib/libcudnn.so.9"
# Every entry in order: a missing one first, then the framework's; an empty entry is the working
# directory (helper 101: the first entry was lost, a one-entry PYTHONPATH read as none).
HOME=$t/home PYTHONPATH=/nonexistent::$apps expect_rc 0 cc resolve libcudnn.so.9 --for "$py"
has "asked by torch 2.6.0's $apps/torch/lib/libtorch_cuda.so"
(cd "$apps" && HOME=$t/home PYTHONPATH=/nonexistent::/elsewhere expect_rc 0 "$CUDNN_COMPAT" resolve \
  libcudnn.so.9 --for "$py" && has "asked by torch 2.6.0's $apps/torch/lib/libtorch_cuda.so")
# doctor --for the same python sees it too.
HOME=$t/home PYTHONPATH=$apps expect_rc 1 cc doctor --for "$py"
has "torch 2.6.0 (nvidia-cudnn-cu12==9.20.0.12"
