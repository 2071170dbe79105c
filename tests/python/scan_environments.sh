# scan --python finds the cuDNN of Python environments an admin names - a virtualenv's wheel
# (site-packages/nvidia/cudnn/lib, its version from the wheel's METADATA) and a conda env's (its
# lib/, the version from conda-meta/cudnn-*.json) - probes each, and lists it with its source; the
# map validates, and resolve and doctor name the source of what they answer.
source "$(dirname "$0")/common.sh"
make_venv "$t/envs/venv"
wheel_cudnn "$site" 9.20.0
conda_env "$t/envs/conda/envs/tf" 9.23.0

expect_rc 0 cc scan --modules none --python "$t/envs" -o "$t/map.toml"
expect_rc 0 cc map show
has "9.20.0.48"
has "9.23.0.48"
out=$(cat "$t/map.toml")
has "lib = \"$site/nvidia/cudnn/lib\""
has "lib = \"$t/envs/conda/envs/tf/lib\""
has 'source = "conda"'   # a wheel's is said by its directory; a conda env's is written
has 'cuda = "12.9"'  # as the library reports it
expect_rc 0 cc map validate
expect_rc 0 cc --json map show
has '"source": "wheel"'
has '"source": "conda"'

# resolve names the source of its answer and of every place it considered.
expect_rc 0 cc resolve libcudnn.so.9 --require 9.20
has "-> $t/envs/conda/envs/tf/lib/libcudnn.so.9"
has "source: conda"
has "9.20.0.48 (wheel)"

# A wheel whose METADATA says another release than its library: the library's word is listed.
sed -i 's/^Version: 9.20.0.48/Version: 9.21.0.1/' "$site"/nvidia_cudnn_cu12-*.dist-info/METADATA
expect_rc 0 cc scan --modules none --python "$site"
has "says 9.21.0.1 but the library reports 9.20.0"
has 'version = "9.20.0"'

# The hidden directories environments live in by convention: a project's .venv and pip's user site
# ~/.local; other hidden directories (.git, .cache) are not walked. Before, `scan --python $HOME`
# found neither (an outside tester).
make_venv "$t/home/proj/.venv"
wheel_cudnn "$site" 9.20.0
mkdir -p "$t/home/.local/lib/python3.11/site-packages" "$t/home/.cache/site-packages"
wheel_cudnn "$t/home/.local/lib/python3.11/site-packages" 9.23.0
wheel_cudnn "$t/home/.cache/site-packages" 9.1.0
expect_rc 0 cc scan --modules none --python "$t/home" -o "$t/home.toml"
out=$(cat "$t/home.toml")
has "lib = \"$t/home/proj/.venv/"
has "lib = \"$t/home/.local/lib/python3.11/site-packages/nvidia/cudnn/lib\""
lacks ".cache"
