# The decision table no longer ties the loader's system search to /etc/ld.so.cache's inode (issue
# 27 item 12): every ldconfig, and every other node of a shared file system, had sent each load the
# cache serves to the engine and a probe. The map is validated here; the job runs where
# ld.so.cache is another file (written by ldconfig, bound over it in a mount namespace of its own)
# that lists FAKE 9.1.0 (kept: it fits 9.1) or FAKE 9.0.0 (redirected to 9.1.0). The shim decides
# each from the cache it reads itself - no process started - under both front ends, installed and
# moved; the shim of main started the engine for both.
source "$(dirname "$0")/common.sh"
command -v strace >/dev/null || skip "strace is not installed (scripts/deps.sh installs it)"
ldconfig=$(PATH=$PATH:/sbin:/usr/sbin command -v ldconfig) || skip "no ldconfig"
deployed
family_client
fake_map 9.0.0 9.1.0 >"$map"
expect_rc 0 "$CUDNN_COMPAT" map validate
for release in 9.0.0 9.1.0; do
  echo "$FAKES/$release/lib64" >"$t/ld.so.conf.$release"
  "$ldconfig" -X -C "$t/ld.so.cache.$release" -f "$t/ld.so.conf.$release"
done
# with_cache RELEASE CMD...: CMD where /etc/ld.so.cache is the one listing RELEASE.
with_cache() {
  in_namespace 'mount --bind "$1" /etc/ld.so.cache && shift && exec "$@"' sh "$t/ld.so.cache.$1" "${@:2}"
}
with_cache 9.0.0 "$t/family" libcudnn.so.9 >"$t/out" || true
grep -q "loaded $FAKES/9.0.0/lib64/libcudnn.so.9" "$t/out" || fail "the cache does not serve 9.0.0:"$'\n'"$(cat "$t/out")"

for front in AUDIT PRELOAD; do
  for release in 9.0.0 9.1.0; do
    expect_rc 0 with_cache $release strace -f -qq -e trace=execve -o "$t/trace" \
      env CUDNN_COMPAT_REQUIRE=9.1 "LD_$front=$SHIM" "$t/family" libcudnn.so.9
    has "version 90100"
    has "loaded $FAKES/9.1.0/lib64/libcudnn.so.9"
    n=$(grep -c 'execve(' "$t/trace")
    [[ $n == 2 ]] || fail "$front, cache of $release: the decision started processes:"$'\n'"$(cat "$t/trace")"
  done
done
