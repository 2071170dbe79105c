# resolve --for an environment's interpreter answers for the library that asks in that process:
# the framework's, whose RUNPATH finds the wheel. Answering for python's own search named another
# release (the system's) while the process mapped the wheel's family. The interpreter's own
# environment counts, whatever VIRTUAL_ENV names (helper 92), and --for's own RUNPATH does too.
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

# The interpreter's own environment, with VIRTUAL_ENV unset or naming another one.
make_venv "$t/other"
wheel_cudnn "$site" 9.0.0
framework "$site" torch 2.2.0 "nvidia-cudnn-cu12==9.0.0.48"
site=$t/venv/lib/python3*/site-packages
for other in "" "$t/other"; do
  expect_rc 0 env VIRTUAL_ENV=$other "$CUDNN_COMPAT" resolve libcudnn.so.9 --for "$python"
  has "asked by torch 2.6.0's $lib"
  lacks "torch 2.2.0"
  expect_rc 0 env VIRTUAL_ENV=$other "$CUDNN_COMPAT" doctor --for "$python"
  has "torch 2.6.0 (nvidia-cudnn-cu12==9.20.0.48"
done
unset VIRTUAL_ENV

# A program's own RUNPATH: the copy it leads to, as the process takes it.
mkdir -p "$t/rp/lib"
cp -P "$FAKES/9.20.0/lib64/"libcudnn* "$t/rp/lib/"
"$CC" -o "$t/rp/prog" -x c - -ldl -Wl,--enable-new-dtags -Wl,-rpath,"$t/rp/lib" <<'C'
int main(void) { return 0; }
C
expect_rc 0 "$CUDNN_COMPAT" resolve libcudnn.so.9 --for "$t/rp/prog"
has "-> $t/rp/lib/libcudnn.so.9"
has "from RUNPATH of $t/rp/prog"

# A path to be is answered (the map's [[require]] globs) and said to be missing by both (helper 92:
# resolve answered silently).
for sub in "doctor" "resolve libcudnn.so.9"; do
  "$CUDNN_COMPAT" $sub --for "$t/no/such/python" >/dev/null 2>"$t/err" || true
  grep -q "no such file; what it links and pins is not known" "$t/err" || fail "$sub said: $(cat "$t/err")"
done

# A framework whose distribution pins no cuDNN still decides what its process loads (helper 92).
make_venv "$t/nopin"
wheel_cudnn "$site" 9.20.0
framework "$site" torch 2.6.0 "numpy>=1"
expect_rc 0 "$CUDNN_COMPAT" resolve libcudnn.so.9 --for "$t/nopin/bin/python"
has "asked by torch 2.6.0's $site/torch/lib/libtorch_cuda.so"
expect_rc 0 "$CUDNN_COMPAT" doctor --for "$t/nopin/bin/python"
has "ok: torch 2.6.0 (pins no cuDNN): $site/torch/lib/libtorch_cuda.so loads libcudnn.so.9 from"
