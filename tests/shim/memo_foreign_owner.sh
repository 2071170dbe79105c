# Issue 20, item 4: a memo is never shared between users. An entry, or the whole memo directory,
# owned by another user (here nobody, 65534) is ignored without a line, and nothing is written into
# a directory of someone else's (one made before the user's first process, as on a shared /tmp): the
# answer is still the map's FAKE 9.1.0. Under LD_AUDIT and LD_PRELOAD. The control (the user's own
# memo answers with no process) fails on the landed shim.
source "$(dirname "$0")/common.sh"
command -v strace >/dev/null || skip "strace is not installed (scripts/deps.sh installs it)"
[[ $(id -u) == 0 ]] || skip "making files of another user's needs root"
memo_setting
chmod 755 "$t"  # nobody may reach the files it is given
settle

for mode in audit preload; do
  rm -rf "$memo"
  case=control && decided_right some && decided_right 0
  case=entry && chown 65534 "$memo"/*.memo && decided_right some && decided_right 0
  case=directory && chown -R 65534 "$memo" && decided_right some && decided_right some
  rm -rf "$memo"
  case=squatted && mkdir -m 700 "$memo" && chown 65534 "$memo" && decided_right some && decided_right some
  [[ -z $(ls -A "$memo") ]] || fail "$mode: written into another user's directory: $(ls -A "$memo")"
done
