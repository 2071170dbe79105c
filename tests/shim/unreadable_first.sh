# A release first on LD_LIBRARY_PATH that the job's user may not read (a licence-restricted
# module, 0750 for its group) is passed over by ld.so's search, which goes on to the next
# directory (EACCES). The shim's walk and the engine's passed it over too: they took it for the
# loader's file, found it fitting and kept it, and the loader loaded the misfit behind it with no
# line (outside test 1203e). Now the misfit is what they judge: nobody, needing 9.1 with the
# unreadable 9.1.0 before 9.0.0, gets the map's 9.20.0, the fitting release it can read, from the
# table as from the engine (CUDNN_COMPAT_DEBUG=1), under both front ends, installed and moved;
# so does a user in 300 groups none of which may read it (the shim looks through 256, and asks
# the kernel beyond: outside test 1203f), and root without CAP_DAC_OVERRIDE; a user in 300 groups
# of which one may read it keeps 9.1.0.
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

chgrp 4321 "$t/9.1.0/lib64/libcudnn.so.9.1.0"
many=$(seq -s, 5000 5299)
in_300() { setpriv --reuid=65534 --regid=65534 --groups="$many" "$@"; }
in_300_with_it() { setpriv --reuid=65534 --regid=65534 --groups="$many,4321" "$@"; }
root_without_dac() { capsh --drop=cap_dac_override,cap_dac_read_search -- -c 'exec "$@"' x "$@"; }
runners="as_nobody in_300"
command -v capsh >/dev/null && runners+=" root_without_dac"
load() {  # load RUNNER FRONT DEBUG
  expect_rc 0 "$1" env LD_LIBRARY_PATH="$t/9.1.0/lib64:$t/9.0.0/lib64" CUDNN_COMPAT_REQUIRE=9.1 \
    ${3:+CUDNN_COMPAT_DEBUG=1} "LD_$2=$SHIM" "$t/family" libcudnn.so.9
}
for front in AUDIT PRELOAD; do
  for debug in "" 1; do
    for runner in $runners; do
      [[ $runner == root_without_dac ]] && chown 65534 "$t/9.1.0/lib64/libcudnn.so.9.1.0"
      load $runner $front "$debug"
      [[ $runner == root_without_dac ]] && chown 0 "$t/9.1.0/lib64/libcudnn.so.9.1.0"
      has "loaded $t/9.20.0/lib64/libcudnn.so.9"
      lacks "loaded $t/9.0.0"
    done
    load in_300_with_it $front "$debug"
    has "loaded $t/9.1.0/lib64/libcudnn.so.9"
  done
done
