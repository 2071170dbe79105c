# resolve --for an environment's interpreter answers for the library that asks in that process:
# the framework's, whose RUNPATH finds the wheel. Answering for python's own search named another
# release (the system's) while the process mapped the wheel's family.
source "$(dirname "$0")/common.sh"
make_venv "$t/venv"
wheel_cudnn "$site" 9.20.0
framework "$site" torch 2.6.0 "nvidia-cudnn-cu12==9.20.0.48"
lib=$site/torch/lib/libtorch_cuda.so
export VIRTUAL_ENV=$t/venv
# python's own search finds another release: FAKE 9.23.0 in the system's directory.
mkdir "$t/system"
cp -P "$FAKES/9.23.0/lib64/"libcudnn* "$t/system/"
# The site's map lists a module's 9.23.0, which fits the pin too: the loader's own choice, the
# wheel's, fits, so the shim keeps it.
printf 'schema = 1\n[[cudnn]]\nversion = "9.23.0"\nlib = "%s"\nmodule = "cudnn/9.23"\n' \
  "$FAKES/9.23.0/lib64" >"$CUDNN_COMPAT_MAP"

expect_rc 0 in_system_dir "$t/system" "$CUDNN_COMPAT" resolve libcudnn.so.9 --for "$t/venv/bin/python" --json
has "\"requester\": \"$lib\""
file=$(sed -n 's/^  "file": "\(.*\)",$/\1/p' <<<"$out")
[[ $(realpath "$(dirname "$file")") == $(realpath "$site/nvidia/cudnn/lib") ]] ||
  fail "resolve names $file, not the wheel's"$'\n'"$out"
expect_rc 0 in_system_dir "$t/system" "$CUDNN_COMPAT" resolve libcudnn.so.9 --for "$t/venv/bin/python"
has "asked by torch 2.6.0's $lib: python links no cuDNN itself"

# The process agrees: python importing the framework maps the wheel's family, and only it.
python=$t/venv/bin/python
for front in LD_AUDIT LD_PRELOAD; do
  expect_rc 0 in_system_dir "$t/system" env "$front=$SHIM" "$python" "$t/load.py" "$lib"
  has "version 92000"
  [[ $(dirs_loaded) == 1 ]] || fail "$front: more than one directory:"$'\n'"$out"
done

# doctor follows the major the framework links, and warns of no other nobody asked for.
expect_rc 0 in_system_dir "$t/system" "$CUDNN_COMPAT" doctor --for "$python"
has "$lib loads libcudnn.so.9 from"
lacks "libcudnn.so.8"
