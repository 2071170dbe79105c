# A release first on LD_LIBRARY_PATH that the job's user may not read (a licence-restricted
# module, 0750 for its group) is passed over by ld.so's search, which goes on to the next
# directory (EACCES). The shim's walk and the engine's passed it over too: they took it for the
# loader's file, found it fitting and kept it, and the loader loaded the misfit behind it with no
# line (outside test 1203e). Now the misfit is what they judge: nobody, needing 9.1 with the
# unreadable 9.1.0 before 9.0.0, gets the map's 9.20.0, the fitting release it can read, from the
# table as from the engine (CUDNN_COMPAT_DEBUG=1), under both front ends, installed and moved.
source "$(dirname "$0")/common.sh"
[[ $(id -u) == 0 ]] || skip "needs root: a library only another uid may read"
nobody_reads "$FAKES/9.0.0/lib64/libcudnn.so.9"
deployed
family_client
chmod 755 "$t"
for v in 9.0.0 9.1.0 9.20.0; do
  mkdir -p "$t/$v" && cp -a "$FAKES/$v/lib64" "$t/$v/"
done
{
  echo "schema = 1"
  for v in 9.0.0 9.1.0 9.20.0; do printf '[[cudnn]]\nversion = "%s"\nlib = "%s"\n' $v "$t/$v/lib64"; done
} >"$map"
expect_rc 0 "$CUDNN_COMPAT" map validate
chmod 640 "$t/9.1.0/lib64/libcudnn.so.9.1.0"
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }
as_nobody test ! -r "$t/9.1.0/lib64/libcudnn.so.9.1.0" || fail "nobody can read the restricted 9.1.0"

for front in AUDIT PRELOAD; do
  for debug in "" 1; do
    expect_rc 0 as_nobody env LD_LIBRARY_PATH="$t/9.1.0/lib64:$t/9.0.0/lib64" CUDNN_COMPAT_REQUIRE=9.1 \
      ${debug:+CUDNN_COMPAT_DEBUG=1} "LD_$front=$SHIM" "$t/family" libcudnn.so.9
    has "loaded $t/9.20.0/lib64/libcudnn.so.9"
    lacks "loaded $t/9.0.0"
  done
done
