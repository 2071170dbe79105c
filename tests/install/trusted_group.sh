#!/usr/bin/env bash
# Issue 25 item 8: a map in a directory the admin team shares (root:GROUP, mode 2775, the map
# 0664) is refused while the map does not trust the group - with one line that names the admins'
# problem, never a command the user cannot run - and used everywhere once [policy] trusted_group
# names it: by jobs (the shim settles them from the validated tables, which carry the group's id),
# by both hooks and by map validate. On the installed and moved tree, as an unprivileged user.
. "$(dirname "$0")/common.sh"
need_module_systems
[[ $(id -u) == 0 ]] || skip "needs root (gives the admins' directory a group, runs a user's job)"
nobody_reads "$FAKES/5.0.5/lib64/libcudnn.so.5" "$modulecmd"
group=daemon
getent group $group >/dev/null || skip "no group $group"
install_to "$t/stage" && mv "$t/stage" "$t/opt"
p=$t/opt shared=$t/shared
chmod 755 "$t"
mkdir -p "$shared" "$t/home" && chmod 777 "$t/home"
site_map >"$shared/map.toml"
export CUDNN_COMPAT_MAP=$shared/map.toml
for f in lua tcl; do "$p/bin/cudnn-compat" modulefiles --format $f -o "$t/modules/$f" >/dev/null; done
chgrp $group "$shared" && chmod 2775 "$shared"
chgrp $group "$shared/map.toml" && chmod 0664 "$shared/map.toml"
app_modules "$t/modules"
tf2016_client
chmod -R a+rX "$t/modules" "$t/apps"
touch "$t/msg" && chmod 666 "$t/msg"  # where lmod() and tcl() leave what the command printed
# as_user CMD...: CMD as nobody, who owns nothing here.
as_user() { setpriv --reuid=65534 --regid=65534 --clear-groups env HOME="$t/home" "$@"; }
job() {
  as_user env CUDNN_COMPAT_REQUIRE=5.1 LD_LIBRARY_PATH="$FAKES/5.0.5/lib64" \
    LD_AUDIT="$p/lib/cudnn-compat/libcudnn-compat.so" "$t/apps/tf2016"
}
user_module() {  # user_module SYSTEM ARGS...: the module command of SYSTEM, as the user
  local system=$1; shift
  as_user bash -c "$(declare -f lmod tcl); lmod_cmd=$lmod_cmd modulecmd=$modulecmd t=$t; $system \"\$@\"; echo \"\$out\"" _ "$p" "$@"
}

# The admins' directory, no trusted group: refused, one line, whose problem it is.
expect_rc 1 job
count "refused: its directory $shared is writable by others than its owner (mode 2775: group $group" 1
has "tell the site's admins"
lacks "chmod"
for system in lmod tcl; do
  out=$(user_module $system load tensorflow/1.0 cudnn/5.0 2>&1 || true)
  has "tell the site's admins"
  lacks "chmod"
  count "refused" 1
done
# The admin who owns it is told what to run.
expect_rc 1 "$p/bin/cudnn-compat" map validate
has "chmod g-w, or name its group in [policy] trusted_group"

# The admins trust their group: validated, the tables carry its id, and every reader uses the map.
sed -i "s/^rule = \"nvidia\"$/rule = \"nvidia\"\ntrusted_group = \"$group\"/" "$shared/map.toml"
expect_rc 0 "$p/bin/cudnn-compat" map validate
has "tables written"
gid=$(getent group $group | cut -d: -f3)
[[ $(head -1 "$shared/map.toml.decide" | cut -f7) == "$gid" ]] || fail "the decision table does not carry gid $gid"
strace -f -qq -e trace=execve -o "$t/trace" bash -c "$(declare -f as_user job); p=$p t=$t FAKES=$FAKES; job" >"$t/out" 2>&1 ||
  fail "the user's job failed: $(cat "$t/out")"
grep -qF "cuDNN 5110 from $FAKES/5.1.10/lib64" "$t/out" || fail "not redirected: $(cat "$t/out")"
! grep -q 'execve(.*cudnn-compat-select' "$t/trace" || fail "the shim started the engine"
for system in lmod tcl; do
  out=$(user_module $system load tensorflow/1.0 cudnn/5.0 2>&1 || true)
  has "$misfit"
  lacks "refused"
done
out=$(as_user "$p/bin/cudnn-compat" doctor 2>&1 || true)
count "not in use" 0
