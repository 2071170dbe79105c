# Issue 21, item 1: a process whose loader finds the fitting release by another path (a link to its
# directory) is handed the same file at the path the map probed; its record says it fit as loaded,
# not that it was redirected (the report would count a redirect instead of itself).
source "$(dirname "$0")/common.sh"
tf2016_client
mkdir "$t/spool"
ln -s "$FAKES/5.1.10/lib64" "$t/link"
fake_map 5.0.5 5.1.10 >"$t/map.toml"
printf '[usage]\nmode = "record"\nto = "%s"\n' "$t/spool" >>"$t/map.toml"
"$CUDNN_COMPAT" map validate >/dev/null  # the table decides
for mode in audit preload; do
  LD_LIBRARY_PATH=$t/link CUDNN_COMPAT_REQUIRE=5.1 started $mode "$t/tf2016"
  has "cuDNN 5110"
  [[ $started == 0 ]] || fail "$mode: the table did not settle it ($started processes)"
done
out=$(cat "$t"/spool/*.usage)
count " rel=5.1.10 " 2
count " verdict=fit " 2
lacks "verdict=redirected"
