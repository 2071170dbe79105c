# threads.sh under ThreadSanitizer: the shim's lock, state and engine runs race with nothing.
source "$(dirname "$0")/common.sh"
fake_map 5.0.5 5.1.10 >"$t/map.toml"
export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 CUDNN_COMPAT_REQUIRE=5.1
# libtsan linked statically: loaded as a shared library it needs more static TLS than glibc leaves
# once any LD_AUDIT module is present ("cannot allocate memory in static TLS block"), ours or not.
tsan=(-fsanitize=thread -static-libtsan)
if echo 'int main(void){return 0;}' | "$CC" "${tsan[@]}" -x c - -o "$t/tsan-probe" 2>/dev/null &&
   "$t/tsan-probe" 2>/dev/null; then
  compile threads-tsan -pthread "${tsan[@]}" -g <"$(dirname "$0")/threads_client.c"
  for mode in audit preload; do
    expect_rc 0 timeout 120 env LD_${mode^^}=$SHIM TSAN_OPTIONS="halt_on_error=1 suppressions=$(dirname "$0")/tsan.supp" "$t/threads-tsan"
    has "wrong 0, child ok"
    lacks "ThreadSanitizer"
  done
else
  skip "$CC has no working ThreadSanitizer (-fsanitize=thread -static-libtsan) here"
fi
