# explain takes a log by its path, as an admin types it (`cudnn-compat explain slurm-123456.out`):
# the file is read, not its name taken for the message ("found no cuDNN error in the 14 bytes
# read", before). A log that cannot be read is said so, with exit status 2.
source "$(dirname "$0")/common.sh"
{
  echo "epoch 1/10"
  echo "2017-11-25 qlua: .../cudnn/ffi.lua:1618: These bindings are for CUDNN 5.x (5005 <= cudnn.version > 6000) , while the loaded CuDNN is version: 7004"
  echo "Are you using an older or newer version of CuDNN?"
} >"$t/slurm-123456.out"
expect_rc 0 cc explain "$t/slurm-123456.out"
has "line 2: "
has "loaded cuDNN 7.0.4"
expect_rc 0 cc --json explain "$t/slurm-123456.out"
has '"runtime": "7.0.4"'
if [[ $(id -u) == 0 ]] && command -v setpriv >/dev/null; then
  chmod 755 "$t" && chmod 600 "$t/slurm-123456.out"
  expect_rc 2 setpriv --reuid=65534 --regid=65534 --clear-groups "$CUDNN_COMPAT" explain "$t/slurm-123456.out"
  has "slurm-123456.out: cannot be read (Permission denied)"
fi
# A log's path mistyped, or a directory, is said so with exit status 2, not read as a message that
# holds no cuDNN error (helper 105 r07); a message of one word without a path's marks is still read.
expect_rc 2 cc explain "$t/slurm-123457.out"
has "slurm-123457.out: cannot be read (No such file or directory)"
expect_rc 2 cc explain slurm-123457.out
has "slurm-123457.out: cannot be read (No such file or directory)"
expect_rc 2 cc explain "$t"
has "cannot be read (Is a directory)"
expect_rc 1 cc explain CUDNN_STATUS_SUCCESS
lacks "cannot be read"
# A log's escape sequences are never sent to the reader's terminal (helper 109): taken out as the
# log is read, as a coloured log's are (helper 110); a C1 control, which is no escape sequence of
# a log's, is written out. A pipe (`explain <(...)`) is read, where it was said to be "No such
# file" (helper 109).
printf '\033]0;TITLE\007\033[2JLoaded runtime CuDNN library: 5005 (compatibility version 5000) but source was compiled with 5103 (compatibility version 5100)\n' >"$t/esc.log"
expect_rc 0 cc explain "$t/esc.log"
has 'line 1: Loaded runtime CuDNN library: 5005'
lacks $'\033'
lacks TITLE
printf '\302\233[2JLoaded runtime CuDNN library: 5005 (compatibility version 5000) but source was compiled with 5103 (compatibility version 5100)\n' >"$t/c1.log"
expect_rc 0 cc explain "$t/c1.log"
has 'line 1: \xc2\x9b[2JLoaded runtime'
lacks $'\302\233'
expect_rc 0 cc explain <(cat "$t/esc.log")
has "what happened:"
