# scan --search stores a symlinked version directory by the path it reached it by, not the
# storage behind the link: after a storage migration (the link re-pointed) the map still holds
# (issue 25, low).
source "$(dirname "$0")/common.sh"
mkdir -p "$t/storage/vol1" "$t/opt/cudnn"
cp -a "$FAKES/9.1.0" "$t/storage/vol1/cudnn-9.1.0"
ln -s "$t/storage/vol1/cudnn-9.1.0" "$t/opt/cudnn/9.1"
expect_rc 0 cc scan --modules none --search "$t/opt" -o "$t/site.toml"
out=$(cat "$t/site.toml")
has "lib = \"$t/opt/cudnn/9.1/lib64\""
lacks "storage"
mv "$t/storage/vol1" "$t/storage/vol2"
ln -sfn "$t/storage/vol2/cudnn-9.1.0" "$t/opt/cudnn/9.1"
# (CUDA 12: not this machine's own cuDNN 9 for CUDA 13, if ld.so.cache holds it.)
expect_rc 0 cc resolve libcudnn.so.9 --require 9.1 --cuda 12 --map "$t/site.toml"
has "libcudnn.so.9 -> $t/opt/cudnn/9.1/lib64/libcudnn.so.9"
