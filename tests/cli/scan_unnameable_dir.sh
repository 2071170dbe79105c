# One cuDNN directory whose path a map cannot hold (a line break, bytes that are no UTF-8) is left
# out and named, printable; the releases found beside it are written. It made the whole scan write
# nothing, naming a line and column of a map never written (helper 109).
source "$(dirname "$0")/common.sh"
mkdir -p "$t/tree/new"$'\n'"line" "$t/tree/odd"$'\xff'"dir" "$t/tree/plain"
cp -P "$FAKES"/9.1.0/lib64/libcudnn* "$t/tree/new"$'\n'"line/"
cp -P "$FAKES"/9.1.0/lib64/libcudnn* "$t/tree/odd"$'\xff'"dir/"
cp -P "$FAKES"/9.20.0/lib64/libcudnn* "$t/tree/plain/"
expect_rc 0 cc scan --modules none --search "$t/tree" -o "$t/map.toml"
has "'$t/tree/new\\nline': a name a map cannot hold"
has "'$t/tree/odd\\xffdir': a name a map cannot hold"
has "scan: added 9.20.0 $t/tree/plain"
expect_rc 0 cc map validate --map "$t/map.toml"
