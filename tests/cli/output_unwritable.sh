# An answer that cannot be written is no answer: `resolve > /dev/full` exited 0 with its output
# lost (helper 92). Now bad usage or input (2), with one line on stderr saying why.
source "$(dirname "$0")/common.sh"
[[ -w /dev/full ]] || skip "no /dev/full"
out=$(cc decode 5103 2>&1 >/dev/full) && fail "decode > /dev/full exited 0"
has "cannot write the output: No space left on device"
out=$(cc --json decode 5103 2>&1 >/dev/full) && fail "--json decode > /dev/full exited 0"
has "cannot write the output"
expect_rc 0 cc decode 5103
has "5.1.3"
