# The engine is a static program: where nsswitch.conf names a module for groups beyond files
# (libnss_systemd here, libnss_sss or ldap on a cluster), glibc's attempt to load it from the
# engine crashed the engine whenever [policy] trusted_group named a group /etc/group lacks, and
# every process that loaded cuDNN without the map's tables said "the engine ... ended without an
# answer" and loaded as usual (found by an outside tester). Now the engine reads groups from the
# file only: the decision is made, with no line. In a mount namespace with its own nsswitch.conf.
source "$(dirname "$0")/common.sh"
[[ $(id -u) == 0 ]] || skip "needs root (a mount namespace with its own nsswitch.conf)"
command -v unshare >/dev/null || skip "no unshare (util-linux)"
nss=$(ls /lib/*-linux-gnu/libnss_systemd.so.2 /usr/lib/*-linux-gnu/libnss_systemd.so.2 2>/dev/null | head -1)
[[ -n $nss ]] || skip "no libnss_systemd.so.2 to name in nsswitch.conf"
family_client
fake_map 9.0.0 9.1.0 | sed 's/^\[policy\]$/[policy]\ntrusted_group = "cudnn-compat-no-such-group"/' >"$t/map.toml"
grep -q trusted_group "$t/map.toml" || fail "no trusted_group in the map"
printf 'passwd: files\ngroup: files systemd\n' >"$t/nsswitch.conf"
export CUDNN_COMPAT_MAP=$t/map.toml LD_LIBRARY_PATH=$FAKES/9.0.0/lib64 CUDNN_COMPAT_REQUIRE=9.1
for mode in audit preload; do
  expect_rc 0 unshare -m bash -c 'mount --bind "$1" /etc/nsswitch.conf && shift && exec "$@"' _ \
    "$t/nsswitch.conf" env "LD_${mode^^}=$SHIM" "$t/family" libcudnn.so.9
  lacks "ended without an answer"
  lacks "cudnn-compat:"
  has "loaded $FAKES/9.1.0/lib64/libcudnn.so.9"
done
