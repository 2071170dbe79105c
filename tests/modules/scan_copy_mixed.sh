# scan loads each distinct library once (a release copied into a directory per module), but a copy
# whose dispatcher is byte for byte the same and whose family is not (its heuristic library links
# to another release's file) is probed on its own and not listed: the memo answered it with the
# whole copy's answer (an outside tester's finding).
source "$(dirname "$0")/common.sh"
for d in whole mixed again; do
  mkdir -p "$t/sw/$d"
  cp -a "$FAKES/9.1.0/lib64" "$t/sw/$d/lib"
done
rm "$t/sw/mixed/lib/libcudnn_heuristic.so.9.1.0"
cp "$FAKES/9.0.0/lib64/libcudnn_heuristic.so.9.0.0" "$t/sw/mixed/lib/"
ln -sf libcudnn_heuristic.so.9.0.0 "$t/sw/mixed/lib/libcudnn_heuristic.so.9"
expect_rc 0 "$CUDNN_COMPAT" scan --modules none --search "$t/sw"
has "scan: added 9.1.0 $t/sw/whole/lib"
has "scan: added 9.1.0 $t/sw/again/lib"
lacks "scan: added 9.1.0 $t/sw/mixed/lib"
has "$t/sw/mixed/lib/libcudnn.so.9: only its file name gives a version (the library did not load: its sub-libraries are not one release"
# The whole copies still share one load: two probes for three directories.
strace -f -e trace=execve -o "$t/trace" "$CUDNN_COMPAT" scan --modules none --search "$t/sw" >/dev/null 2>&1 ||
  skip "strace cannot run here"
[[ $(grep -c 'execve(.*cudnn-compat-probe.*= 0' "$t/trace") == 2 ]] || fail "probes: $(grep -c 'cudnn-compat-probe' "$t/trace")"
# Written with its tables (-o), whose writer loads each distinct library once too: one probe of its
# own for the two whole copies (an outside tester's finding: one per copy, 753 for 750 modules).
strace -f -e trace=execve -o "$t/trace" "$CUDNN_COMPAT" scan --modules none --search "$t/sw" \
  -o "$t/written/map.toml" >/dev/null 2>&1 || fail "scan -o failed"
[[ -s $t/written/map.toml.decide ]] || fail "no decision table written: $(ls "$t/written")"
[[ $(grep -c 'execve(.*cudnn-compat-probe.*= 0' "$t/trace") == 3 ]] || fail "probes with -o: $(grep -c 'cudnn-compat-probe' "$t/trace")"

# Another release's file copied over a sub-library under the right name, of the same size (the
# FAKE releases' sub-libraries all are): the probe tells it (cudnnOpsVersionCheck), so the memo
# must not answer for it, whichever directory is scanned first (an outside tester's finding).
rm -rf "$t/sw/mixed"
mkdir -p "$t/sw/b-swapped"
cp -a "$FAKES/9.1.0/lib64" "$t/sw/b-swapped/lib"
cp "$FAKES/9.0.0/lib64/libcudnn_ops.so.9.0.0" "$t/sw/b-swapped/lib/libcudnn_ops.so.9.1.0"
expect_rc 0 "$CUDNN_COMPAT" scan --modules none --search "$t/sw"
lacks "scan: added 9.1.0 $t/sw/b-swapped/lib"
has "scan: added 9.1.0 $t/sw/again/lib"
