#!/usr/bin/env bash
# A map's trusted_group with thousands of members (a site's whole user group): its /etc/group line
# is longer than a fixed lookup buffer, and the group was taken for no group on this system, so a
# map its members may edit was refused. The group file is bound over /etc/group in a mount
# namespace of the scenario's own.
. "$(dirname "$0")/common.sh"
[[ $(id -u) == 0 ]] || skip "binding a group file over /etc/group needs root in a mount namespace"
unshare --mount true 2>/dev/null || skip "no mount namespace here (unshare --mount failed)"

{ cat /etc/group; printf 'bigsite:x:4242:%s\n' "$(seq -f 'user%05g' -s, 6000)"; } >"$t/group"
(($(wc -c <"$t/group") > 60000)) || fail "the group line is not long"
mkdir "$t/site"
fake_map | sed 's/^rule = "nvidia"$/rule = "nvidia"\ntrusted_group = "bigsite"/' >"$t/site/map.toml"
grep -q 'trusted_group = "bigsite"' "$t/site/map.toml" || fail "no trusted_group in the map"
chown root:4242 "$t/site" "$t/site/map.toml"
chmod 775 "$t/site" && chmod 664 "$t/site/map.toml"
in_namespace() { unshare --mount bash -c 'mount --bind "$0" /etc/group && exec "$@"' "$t/group" "$@"; }
expect_rc 0 in_namespace getent group bigsite
expect_rc 0 in_namespace "$CUDNN_COMPAT" map validate "$t/site/map.toml"
has "valid, 4 cuDNN release(s)"
lacks "is no group on this system"
CUDNN_COMPAT_MAP=$t/site/map.toml expect_rc 0 in_namespace "$CUDNN_COMPAT" resolve libcudnn.so.5 --require 5.1
has "-> $FAKES/5.1.10/lib64/libcudnn.so.5"
