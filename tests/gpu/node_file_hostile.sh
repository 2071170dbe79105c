# What stands in the node file's place is believed only when it is a regular file of the user's own
# that nobody else may write, modified in this boot and not later than now, with a boot line
# (shim/shared/node_file.h). A FIFO there held every process that loaded cuDNN in open() for ever;
# a file from a clock that ran ahead, one without a boot line, and one others may write were
# believed by the shim's fast path (the outside test of 2026-12-02). Each is passed over: the node
# is learnt anew (NVML asked) and the right release loaded, within the deadline, no line.
source "$(dirname "$0")/common.sh"
node_scenario
export FAKE_NVML_GPUS=7.0 FAKE_NVML_DRIVER=12020 FAKE_NVML_LOG=$t/nvml.log
run() {
  expect_rc 0 timeout -k 2 20 env LD_AUDIT="$SHIM" "$t/client"
  has "loaded $t/volta/lib64/libcudnn.so.9"
  lacks "cudnn-compat:"
}
run && nvml_asked 1 learnt
# A forged file that says the node has a 7.5, which would hand over turing if believed.
forge() { printf 'boot\t%s\ngpus\t7.5\ndriver\t12.2\nsource\tforged\nproblem\t\nend\n' "$1" >"$node_file"; }

rm -f "$node_file" && mkfifo "$node_file"
run && nvml_asked 2 "a FIFO"
forge "$(cat /proc/sys/kernel/random/boot_id)" && touch -d "@$(($(date +%s) + 3600))" "$node_file"
run && nvml_asked 3 "modified an hour from now"
forge ""
run && nvml_asked 4 "no boot id"
forge "$(cat /proc/sys/kernel/random/boot_id)" && chmod 0666 "$node_file"
run && nvml_asked 5 "writable by others"
# Rewritten as the engine's own file, mode 0600, not in the image of the file it replaced (which
# kept the rewrite writable by others, so that it was passed over and NVML asked on every load).
[[ $(stat -c %a "$node_file") == 600 ]] || fail "the node file was rewritten $(stat -c %a "$node_file")"
run && nvml_asked 5 "after the rewrite of a file others may write"
boot=$(cat /proc/sys/kernel/random/boot_id)
# A file of 2 GB (truncate -s): judged by its size and never read (the engine read it whole, 10 s
# and GBs of memory a load, and left it in place), then rewritten small.
forge "$boot" && truncate -s 2G "$node_file"
SECONDS=0
run && nvml_asked 6 "2 GB"
((SECONDS < 5)) || fail "a node file of 2 GB took ${SECONDS} s"
(($(stat -c %s "$node_file") < 4096)) || fail "a node file of 2 GB was not rewritten"
# Files off the grammar every reader applies (docs/contract.md): lines that end in CRLF, a second
# gpus line (the shim took the first, the engine both), a NUL after a value (the shim and the
# engine believed it), a line after the end line. None is believed; each is rewritten.
printf 'boot\t%s\r\ngpus\t7.5\r\ndriver\t12.2\r\nsource\tforged\r\nproblem\t\r\nend\r\n' "$boot" >"$node_file"
run && nvml_asked 7 "CRLF"
printf 'boot\t%s\ngpus\t7.5\ngpus\t7.0\ndriver\t12.2\nsource\tforged\nproblem\t\nend\n' "$boot" >"$node_file"
run && nvml_asked 8 "two gpus lines"
printf 'boot\t%s\ngpus\t7.5\0\ndriver\t12.2\nsource\tforged\nproblem\t\nend\n' "$boot" >"$node_file"
run && nvml_asked 9 "a NUL"
forge "$boot" && echo more >>"$node_file"
run && nvml_asked 10 "a line after the end line"
run && nvml_asked 10 "the rewritten file"
# Values off the one X.Y grammar (docs/contract.md): a trailing comma (the shim took "7.5,"), a 'v'
# (the engine took "v12.2"), three digits (both took "007.5").
forge_values() {
  printf 'boot\t%s\ngpus\t%s\ndriver\t%s\nsource\tforged\nproblem\t\nend\n' "$boot" "$1" "$2" >"$node_file"
}
forge_values 7.5, 12.2
run && nvml_asked 11 "a trailing comma"
forge_values 7.5 v12.2
run && nvml_asked 12 "a driver with a v"
forge_values 007.5 12.2
run && nvml_asked 13 "three digits"

# A node name with a newline (the engine cut "od\nx" to "od", another node's file, here one that
# says 7.5) is passed over for the host name, as by every reader.
host_file=/tmp/cudnn-compat-$(id -u)/node-$(uname -n)
rm -f "$host_file"
forge "$boot"
SLURMD_NODENAME=$SLURMD_NODENAME$'\nx' run && nvml_asked 14 "a node name with a newline"
[[ -f $host_file ]] || fail "a node name with a newline: no node file under the host name"
rm -f "$host_file"

# Root (the CI): a file of another user's in root's own directory is rewritten as root's own, not
# handed to that user again.
if ((EUID == 0)); then
  forge "$(cat /proc/sys/kernel/random/boot_id)" && chown 1000:1000 "$node_file"
  run && nvml_asked 15 "another user's"
  [[ $(stat -c %u:%g:%a "$node_file") == 0:0:600 ]] || fail "rewritten $(stat -c %u:%g:%a "$node_file")"
  run && nvml_asked 15 "after the rewrite of another user's file"
fi
