# A sub-library of the process's family that its directory holds but the job's user may not read
# is no member there, as a missing one is not: it comes from another place of exactly the
# family's release, or is not loaded, with one line that says the file cannot be read - never
# another release's copy from LD_LIBRARY_PATH. Before, the shim handed ld.so the unreadable
# file, and the load failed with cuDNN's own error and no line of ours (outside test 1203e, F5).
# As nobody, with the release in the map (validated by root, who reads it whole), under both
# front ends.
source "$(dirname "$0")/common.sh"
[[ $(id -u) == 0 ]] || skip "needs root: a library only another uid may read"
nobody_reads "$FAKES/9.23.0/lib64/libcudnn.so.9"
family_client
chmod 755 "$t"
mkdir -p "$t/9.20.0" && cp -a "$FAKES/9.20.0/lib64" "$t/9.20.0/"
printf 'schema = 1\n[[cudnn]]\nversion = "9.20.0"\nlib = "%s"\n' "$t/9.20.0/lib64" >"$t/map.toml"
expect_rc 0 "$CUDNN_COMPAT" map validate "$t/map.toml"
chmod 600 "$t"/9.20.0/lib64/libcudnn_adv.so.9.20.0
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
as_nobody test ! -r "$t/9.20.0/lib64/libcudnn_adv.so.9" || fail "nobody can read the adv library"
for front in AUDIT PRELOAD; do
  expect_rc 3 as_nobody env LD_LIBRARY_PATH="$t/9.20.0/lib64:$FAKES/9.23.0/lib64" \
    "LD_$front=$SHIM" "$t/family" libcudnn.so.9 cudnnAdvVersionCheck
  has "loaded $t/9.20.0/lib64/libcudnn.so.9"
  lacks "loaded $FAKES/9.23.0"
  has "cudnn-compat: libcudnn_adv.so.9 cannot be read by this user in $t/9.20.0/lib64"
  count "cudnn-compat:" 1
done
