# scan --search follows symlinked version directories, goes deeper than 7 levels, and ends on a
# symlink loop (issue 12, low).
source "$(dirname "$0")/common.sh"
deep=$t/sw/a/b/c/d/e/f/g/h/cudnn
mkdir -p "$deep" "$t/store"
cp -a "$FAKES/5.1.10" "$deep/5.1.10"
cp -a "$FAKES/9.1.0" "$t/store/9.1.0"
mkdir -p "$t/sw/cudnn"
ln -s "$t/store/9.1.0" "$t/sw/cudnn/9.1"   # a version directory that is a symlink
ln -s "$t/sw" "$t/sw/a/loop"              # a loop
expect_rc 0 "$CUDNN_COMPAT" scan --modules none --search "$t/sw"
has 'version = "5.1.10"'
has 'version = "9.1.0"'
count 'version = "9.1.0"' 1
