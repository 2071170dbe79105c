# Issue 20, item 4: a memo is never shared between users. An entry, or the whole memo directory,
# owned by another user (here nobody, 65534) is ignored without a line, and nothing is written into
# a directory of someone else's (one made before the user's first process, as on a shared /tmp): the
# answer is still the map's FAKE 9.1.0. Under LD_AUDIT and LD_PRELOAD. The control (the user's own
# memo answers with no process) fails on the landed shim.
source "$(dirname "$0")/common.sh"
command -v strace >/dev/null || skip "strace is not installed (scripts/deps.sh installs it)"
[[ $(id -u) == 0 ]] || skip "making files of another user's needs root"
family_client
mkdir "$t/site"
fake_map 9.0.0 9.1.0 >"$t/site/map.toml"
export CUDNN_COMPAT_MAP=$t/site/map.toml
expect_rc 0 "$CUDNN_COMPAT" map validate "$CUDNN_COMPAT_MAP"
cp -a "$FAKES/9.0.0" "$t/own"
export LD_LIBRARY_PATH=$t/own/lib64 CUDNN_COMPAT_REQUIRE=9.1
chmod 755 "$t"  # nobody may reach the files it is given
settle

right() {
  started $mode "$t/family" libcudnn.so.9
  has "loaded $FAKES/9.1.0/lib64/libcudnn.so.9"
  lacks "cudnn-compat:"
  if [[ $1 == some ]]; then
    ((started > 0)) || fail "$mode, $case: the memo was used:"$'\n'"$trace"
  else
    [[ $started == "$1" ]] || fail "$mode, $case: $started processes, expected $1:"$'\n'"$trace"
  fi
}

for mode in audit preload; do
  rm -rf "$memo"
  case=control && right some && right 0
  case=entry && chown 65534 "$memo"/*.memo && right some && right 0
  case=directory && chown -R 65534 "$memo" && right some && right some
  rm -rf "$memo"
  case=squatted && mkdir -m 700 "$memo" && chown 65534 "$memo" && right some && right some
  [[ -z $(ls -A "$memo") ]] || fail "$mode: written into another user's directory: $(ls -A "$memo")"
done
