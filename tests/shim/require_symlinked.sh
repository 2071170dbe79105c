# A [[require]] glob written on the path programs are started by, through a symlinked directory
# (module trees are full of them), matches in the shim as it does in `resolve --for`.
source "$(dirname "$0")/common.sh"
tf2016_client
mkdir -p "$t/real"
mv "$t/tf2016" "$t/real/"
ln -s "$t/real" "$t/apps"
{ fake_map 5.0.5 5.1.10; printf '[[require]]\nmatch = "%s/apps/*"\ncudnn = "5.1.3"\n' "$t"; } >"$t/map.toml"
"$CUDNN_COMPAT" map validate "$t/map.toml" >/dev/null
export LD_LIBRARY_PATH=$FAKES/5.0.5/lib64
for mode in audit preload; do
  expect_rc 0 $mode "$t/apps/tf2016"
  has "cuDNN 5110 from $FAKES/5.1.10/lib64/libcudnn.so.5"
done
