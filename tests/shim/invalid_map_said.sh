# The shim's one line for a map it cannot use names the map's error, not a warning before it
# (admin tester helper 115, finding 4: "unknown key 'verison' ... is ignored" was the reason given
# for refusing the whole map). The process loads what it would have.
source "$(dirname "$0")/common.sh"
tf2016_client
printf 'schema = 1\n[[cudnn]]\nverison = "5.1.10"\nlib = "%s"\n' "$FAKES/5.1.10/lib64" >"$t/map.toml"
export CUDNN_COMPAT_MAP=$t/map.toml LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 CUDNN_COMPAT_REQUIRE=5.1.3
for mode in audit preload; do
  expect_rc 1 $mode "$t/tf2016"  # TensorFlow 2016 refuses 5.0.5, as without the shim
  count "cudnn-compat:" 1
  has "$t/map.toml:2:1: error: missing key 'version'"
  lacks "warning: unknown key"
done
