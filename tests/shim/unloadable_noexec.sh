# The decision table never hands over a file this process cannot load (issue 27 item 1): the
# map's 5.1.10 has a first place that `map validate` probed where it could run, and that the job
# sees on a noexec mount (the same files: the same identities). The job gets 5.1.10 from its
# second place, as the engine - whose probe runs where the job runs - finds it, under both front
# ends, installed and moved. The shim of main handed over the file on the noexec mount ("failed
# to map segment from shared object"), where the ordinary load works.
source "$(dirname "$0")/common.sh"
deployed
tf2016_client
mkdir "$t/nx"
cp -a "$FAKES/5.1.10/lib64/." "$t/nx/"
{
  fake_map 5.0.5
  printf '[[cudnn]]\nversion = "5.1.10"\nlib = ["%s", "%s"]\n' "$t/nx" "$FAKES/5.1.10/lib64"
} >"$map"
expect_rc 0 "$CUDNN_COMPAT" map validate
grep -q "$t/nx/libcudnn.so.5" "$map.decide" || fail "the first place is not in the table"

noexec() { in_namespace 'mount --bind "$1" "$1" && mount -o remount,bind,noexec "$1" && shift && exec "$@"' sh "$t/nx" "$@"; }
expect_rc 1 noexec env LD_LIBRARY_PATH="$t/nx" "$t/tf2016"
has "failed to map segment"
for front in AUDIT PRELOAD; do
  expect_rc 0 noexec env LD_LIBRARY_PATH="$FAKES/5.0.5/lib64" CUDNN_COMPAT_REQUIRE=5.1.3 \
    "LD_$front=$SHIM" "$t/tf2016"
  has "$redirected"
done
