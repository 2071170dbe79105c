# Issue 27, item 6: the shim's line never lands in a data file the host put on fd 2 - opened into
# a closed fd 2, or dup2'ed there - while a log file the process was started with on fd 2 still
# gets it, and CUDNN_COMPAT_LOG=FILE sends it to a file of the site's choosing instead. With the
# landed shim the data file read "DATA-HEADER|cudnn-compat: ...|DATA-TRAILER".
source "$(dirname "$0")/common.sh"
compile datafile <<C
$load5_main
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
// argv[1]: "open" (the data file opened into fd 2, closed at start), "dup2" (dup2'ed onto fd 2) or
// "keep" (fd 2 left as started, the data file elsewhere); argv[2]: the data file.
int main(int argc, char **argv) {
  (void)argc;
  int data = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (!strcmp(argv[1], "dup2")) data = dup2(data, 2);
  if (strcmp(argv[1], "keep") ? data != 2 : data == 2) return 2;
  if (write(data, "DATA-HEADER|", 12) != 12) return 2;
  load5();
  return write(data, "DATA-TRAILER", 12) == 12 ? 0 : 2;
}
C
fake_map 5.0.5 >"$t/map.toml"  # nothing fits 5.1: the shim has a line to say
export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 CUDNN_COMPAT_REQUIRE=5.1.3
line="cudnn-compat: libcudnn.so.5: needs 5.1.3"
closed_stderr() { "$@" 2>&-; }

for mode in audit preload; do
  expect_rc 0 closed_stderr env LD_${mode^^}=$SHIM "$t/datafile" open "$t/data"
  [[ $(<"$t/data") == "DATA-HEADER|DATA-TRAILER" ]] || fail "$mode, opened: the data file holds: $(<"$t/data")"
  expect_rc 0 env LD_${mode^^}=$SHIM "$t/datafile" dup2 "$t/data"
  [[ $(<"$t/data") == "DATA-HEADER|DATA-TRAILER" ]] || fail "$mode, dup2: the data file holds: $(<"$t/data")"
  lacks "cudnn-compat:"
  # A log the process was started with on fd 2 is the site's: the line goes there.
  env LD_${mode^^}=$SHIM "$t/datafile" keep "$t/data" 2>"$t/log" || fail "$mode, keep: exit $?"
  out=$(<"$t/log")
  has "$line"
  [[ $(<"$t/data") == "DATA-HEADER|DATA-TRAILER" ]] || fail "$mode, keep: the data file holds: $(<"$t/data")"
  # CUDNN_COMPAT_LOG: appended to the file named, fd 2 untouched.
  rm -f "$t/shim.log"
  for run in 1 2; do
    expect_rc 0 closed_stderr env CUDNN_COMPAT_LOG="$t/shim.log" LD_${mode^^}=$SHIM "$t/datafile" open "$t/data"
    [[ $(<"$t/data") == "DATA-HEADER|DATA-TRAILER" ]] || fail "$mode, CUDNN_COMPAT_LOG: the data file holds: $(<"$t/data")"
  done
  out=$(<"$t/shim.log")
  count "$line" 2
done
