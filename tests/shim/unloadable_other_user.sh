# The decision table never hands over a file this process cannot load (issue 27 item 1): the
# map's 5.1.10 has a place readable by root only, listed first, probed by root's `map validate`.
# A job of another user (nobody) that needs 5.1 with FAKE 5.0.5 first on its path gets 5.1.10
# from the place it can read, as the engine - whose probe runs as that user - finds it, under
# both front ends, installed and moved. The shim of main handed over the unreadable file, and
# the load failed where the ordinary one works.
source "$(dirname "$0")/common.sh"
[[ $(id -u) == 0 ]] || skip "needs root: a library only another uid may read"
nobody_reads "$FAKES/5.0.5/lib64/libcudnn.so.5"
deployed
tf2016_client
chmod 755 "$t"
mkdir "$t/private"
cp -a "$FAKES/5.1.10/lib64/." "$t/private/"
chmod 600 "$t/private/libcudnn.so.5.1.10"
{
  fake_map 5.0.5
  printf '[[cudnn]]\nversion = "5.1.10"\nlib = ["%s", "%s"]\n' "$t/private" "$FAKES/5.1.10/lib64"
} >"$map"
expect_rc 0 "$CUDNN_COMPAT" map validate
grep -q "$t/private/libcudnn.so.5" "$map.decide" || fail "the private place is not in the table"
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
as_nobody test ! -r "$t/private/libcudnn.so.5.1.10" || fail "nobody can read the private copy"

for front in AUDIT PRELOAD; do
  expect_rc 0 as_nobody env LD_LIBRARY_PATH="$FAKES/5.0.5/lib64" CUDNN_COMPAT_REQUIRE=5.1.3 \
    "LD_$front=$SHIM" "$t/tf2016"
  has "$redirected"
done
