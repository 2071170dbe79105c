# 16 threads load cuDNN and other libraries at once while the main thread forks, and the child
# execs a program that loads cuDNN: no deadlock, no crash, and every thread and the child get the
# redirected release (threads_client.c; threads_tsan.sh runs it under ThreadSanitizer). (The child execs
# rather than calling dlopen itself: glibc's own dlopen in a child forked during another thread's
# dlopen can deadlock or assert without any shim; we checked.)
source "$(dirname "$0")/common.sh"
compile threads -pthread <"$(dirname "$0")/threads_client.c"
fake_map 5.0.5 5.1.10 >"$t/map.toml"
export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 CUDNN_COMPAT_REQUIRE=5.1
for mode in audit preload; do
  for round in 1 2 3; do
    expect_rc 0 timeout 60 env LD_${mode^^}=$SHIM "$t/threads"
    has "wrong 0, child ok"
  done
done

