# explain splits lines at \r too (progress bars hide messages otherwise) and says when a line was
# too long to read whole instead of cutting it silently. Line numbers are the file's: a \r starts a
# piece of a line, as an editor, less and wc -l count them.
source "$(dirname "$0")/common.sh"
printf ' 10%%|#   |\r 20%%|##  |\rImportError: libcudnn.so.8: cannot open shared object file\r\n' >"$t/bar.log"
expect_rc 0 cc --json explain <"$t/bar.log"
has '"library": "libcudnn.so.8"'
has '"line": 1'
{ head -c 100000 /dev/zero | tr '\0' x; echo; } >"$t/long.log"
expect_rc 1 cc explain <"$t/long.log"
has "not read whole: line 1 is 100000 bytes long; only its first 8192 were read"
