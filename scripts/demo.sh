#!/usr/bin/env bash
# README command 1: install what is missing, build, and show what cudnn-compat does - the 2016
# failure reproduced, explained, and cured by the shim - on FAKE cuDNN releases built here and on
# the real cuDNN under /usr/local/cuda when the machine has one.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh
build=${BUILD_DIR:-build}
cmake -S . -B "$build" >/dev/null
cmake --build "$build" -j"$(nproc)" >/dev/null
cc="$build/bin/cudnn-compat"
fakes="$PWD/$build/fakecudnn"
demo="$build/demo"
mkdir -p "$demo"

step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; "$@" || true; }

# The TensorFlow-2016-like client of the loader scenarios, built with cuDNN 5.1.3.
tf2016="$demo/tf2016"
"${CC:-cc}" -o "$tf2016" tests/shim/tf2016_client.c -ldl

echo "== The problem: a program built with cuDNN 5.1.3 finds FAKE cuDNN 5.0.5 first on the path:"
step env LD_LIBRARY_PATH="$fakes/5.0.5/lib64" "$tf2016"

echo
echo "== What it meant by 'Loaded runtime CuDNN library: 5005 (compatibility version 5000) but"
echo "   source was compiled with 5103 (compatibility version 5100)':"
step "$cc" decode 5005 5103
step "$cc" check --built-with 5103 --runtime 5005 --rule tensorflow-2016

echo
echo "== Every encoding, name and module scheme:"
step "$cc" decode 5110 91001 "(8, 9, 2)" libcudnn_graph.so.9.19.0 cuDNN/8.9.2.26-CUDA-12.1.1 cudnn/8.9.7.29-12
step "$cc" decode --cudart 13010

echo
echo "== The true version of each installed library (FAKE releases built by the tests):"
step "$cc" probe "$fakes"/{5.0.5,5.1.10,8.9.7,9.1.0}/lib64
real=/usr/local/cuda/lib64
if [[ -e $real/libcudnn.so.9 ]]; then
  step "$cc" probe "$real"
else
  echo "(no real cuDNN under $real on this machine: skipping it)"
fi

# A site map: the fakes, plus the real cuDNN when present, with its version from the probe.
{
  printf 'schema = 1\n\n[policy]\nrule = "nvidia"\n'
  for v in 5.0.5 5.1.10 8.9.7 9.1.0; do
    printf '\n[[cudnn]]\nversion = "%s"\nlib = "%s/%s/lib64"\nmodule = "cudnn/%s"\n' "$v" "$fakes" "$v" "${v%.*}"
  done
  if [[ -e $real/libcudnn.so.9 ]]; then
    probed=$("$cc" probe --json "$real")
    rv=$(sed -n 's/.*"version": "\(.*\)".*/\1/p' <<<"$probed")
    rc=$(sed -n 's/.*"cuda": "\(.*\)".*/\1/p' <<<"$probed")
    printf '\n[[cudnn]]\nversion = "%s"\nlib = "%s"\ncuda = "%s"\n' "$rv" "$real" "$rc"
  fi
} >"$demo/map.toml"
export CUDNN_COMPAT_MAP="$PWD/$demo/map.toml"

echo
echo "== A version map of what is installed ($CUDNN_COMPAT_MAP), checked against the libraries:"
step "$cc" map validate --probe
echo
echo "== Which library a program built with cuDNN 5.1 should get, and why:"
step "$cc" resolve libcudnn.so.5 --require 5.1
echo
echo "== A cuDNN 9 program: the newest 9.x, and its sub-libraries from the same directory:"
step "$cc" resolve libcudnn.so.9 --require 9.1
step "$cc" resolve libcudnn_graph.so.9 --require 9.1
echo
echo "== When nothing installed fits, what to ask the admins for:"
step "$cc" resolve libcudnn.so.7 --require 7.6

echo
echo "== The same failure explained, with the fix drawn from the map (its log on stdin):"
msg=$(LD_LIBRARY_PATH="$fakes/5.0.5/lib64" "$tf2016" 2>&1 || true)
printf '\n\033[1m$ %s\033[0m\n' "$cc explain < job.log"
"$cc" explain <<<"$msg" || true
echo
echo "== And found before the job runs: what this environment would hand the program:"
step env LD_LIBRARY_PATH="$fakes/5.0.5/lib64" "$cc" doctor --require 5.1.3

echo
echo "== The cure: the same run with the shim (LD_AUDIT) hands the program FAKE 5.1.10 from the map."
echo "   CUDNN_COMPAT_DEBUG=1 shows the decision; without it the shim is silent when all goes well:"
step env LD_LIBRARY_PATH="$fakes/5.0.5/lib64" CUDNN_COMPAT_REQUIRE=5.1.3 CUDNN_COMPAT_DEBUG=1 \
  LD_AUDIT="$("$cc" shim-path)" "$tf2016"
echo
echo "== The same with LD_PRELOAD, for sites that cannot use audit:"
step env LD_LIBRARY_PATH="$fakes/5.0.5/lib64" CUDNN_COMPAT_REQUIRE=5.1.3 \
  LD_PRELOAD="$("$cc" shim-path)" "$tf2016"

lmod_cmd=/usr/share/lmod/lmod/libexec/lmod
if [[ -x $lmod_cmd ]]; then
  echo
  echo "== At module load time (the real Lmod): modules generated from the map, an application that"
  echo "   says what it was built with, and the hook's warning naming the module that fits:"
  tree="$PWD/$demo/modulefiles"
  rm -rf "$tree"
  "$cc" map validate >/dev/null  # also writes the tables the hooks read
  step "$cc" modulefiles --format lua -o "$tree"
  mkdir -p "$tree/tensorflow" && echo 'cudnn_requires("5.1.3")' >"$tree/tensorflow/1.0.lua"
  echo "(tensorflow/1.0.lua: cudnn_requires(\"5.1.3\"))"
  (
    export MODULEPATH=$tree LMOD_PACKAGE_PATH="$PWD/$build/share/cudnn-compat/lmod" LMOD_IGNORE_CACHE=1
    unset LOADEDMODULES _LMFILES_ _ModuleTable_ LD_LIBRARY_PATH
    module() { eval "$("$lmod_cmd" bash "$@")"; }
    printf '\n\033[1m$ module load cudnn/5.0 tensorflow/1.0\033[0m\n'
    module load cudnn/5.0 tensorflow/1.0 || true
    printf '\n\033[1m$ module load cudnn-compat && %s\033[0m\n' "$tf2016"
    echo "   (cudnn/5.0 stays loaded: the shim hands the program 5.1.10 anyway)"
    module load cudnn-compat || true
    "$tf2016" || true
  )
else
  echo "(no Lmod here: skipping the module part of the demo)"
fi
