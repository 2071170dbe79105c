#!/usr/bin/env bash
# The tool works under a small stack limit (`ulimit -s 64`, which sets the hard limit too, so the
# process cannot raise it): an outside tester's finding, where resolve died of SIGSEGV with no word
# as it read the map's table through a 64 KiB block on the stack.
. "$(dirname "$0")/common.sh"

fake_map >"$t/map.toml"
export CUDNN_COMPAT_MAP="$t/map.toml"
expect_rc 0 cc map validate "$t/map.toml"
[[ -f $t/map.toml.decide ]] || fail "map validate wrote no table"

small() { (ulimit -s 64 && exec "$CUDNN_COMPAT" "$@"); }
expect_rc 0 small resolve libcudnn.so.5 --require 5.1
has "libcudnn.so.5 -> $FAKES/5.1.10/lib64/libcudnn.so.5"
expect_rc 0 small --json resolve libcudnn.so.5 --require 5.1
has '"version": "5.1.10"'
expect_rc 0 small map validate "$t/map.toml"  # reads the map back to stamp its tables
expect_rc 0 small map show
has "5.1.10"
rc=0 && small doctor >"$t/doctor" 2>&1 || rc=$?
((rc < 128)) || fail "doctor died of signal $((rc - 128)) under ulimit -s 64: $(cat "$t/doctor")"
grep -q "cuDNN" "$t/doctor" || fail "doctor said nothing of cuDNN: $(cat "$t/doctor")"

# explain reads a log from a file or stdin through no block on its stack (a second tester's
# finding: `echo hello | cudnn-compat explain` died of SIGSEGV under ulimit -s 64).
printf 'Loaded runtime CuDNN library: 5005 (compatibility version 5000) but source was compiled with 5103 (compatibility version 5100)\n' >"$t/log"
expect_rc 0 small explain "$t/log"
has "5.0.5"
expect_rc 0 bash -c "ulimit -s 64 && exec \"\$0\" explain - <\"\$1\"" "$CUDNN_COMPAT" "$t/log"
has "5.1.3"
# A map nested 50 deep is named invalid at its bracket, before the parser's recursion runs off the
# stack (the same tester: every command that read it died).
{ echo "schema = 1"; printf 'x = %s%s\n' "$(printf '[%.0s' {1..50})" "$(printf ']%.0s' {1..50})"; } >"$t/deep.toml"
expect_rc 1 small map validate "$t/deep.toml"
has "deep.toml:2:21: error: nested more than 16 deep"
