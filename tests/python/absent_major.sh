# A process in a virtual environment whose wheel holds cuDNN 9 asks for libcudnn.so.7 (frameworks
# try older majors), which nothing on the machine is: the load fails as without the shim, and no
# NVML probe is started to learn the node, since no place of that major is there to judge (an
# outside tester's finding: the wheel of another major counted as a candidate).
source "$(dirname "$0")/common.sh"
command -v strace >/dev/null || skip "strace is not installed (scripts/deps.sh installs it)"
make_venv "$t/venv"
wheel_cudnn "$site" 9.1.0
"$CC" -o "$t/open" -x c - -ldl <<'C'
#include <dlfcn.h>
#include <stdio.h>
int main(int argc, char **argv) { printf("%s\n", dlopen(argv[1], RTLD_NOW) ? "loaded" : "failed"); return 0; }
C
for mode in AUDIT PRELOAD; do
  rm -f "$node_of_scenario"  # a node no process has learnt
  strace -f -qq -e trace=execve -o "$t/trace" env VIRTUAL_ENV="$t/venv" "LD_$mode=$SHIM" \
    "$t/open" libcudnn.so.7 >"$t/out" 2>&1 || fail "$mode: the client failed: $(cat "$t/out")"
  [[ $(cat "$t/out") == failed ]] || fail "$mode: $(cat "$t/out")"
  ! grep -q 'cudnn-compat-probe.*--nvml' "$t/trace" || fail "$mode: an NVML probe was started"
done
