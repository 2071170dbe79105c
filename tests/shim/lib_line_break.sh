# A [[cudnn]] lib holding a line break is an error at its line and column (issue 27 item 11):
# validate and resolve refuse the map, and the shim - under both front ends, installed and moved -
# keeps the ordinary load and says where the map is wrong, instead of cutting the path at the
# break in its table and answer and keeping the misfit without a word, as the shim of main did.
source "$(dirname "$0")/common.sh"
deployed
tf2016_client
{
  fake_map 5.0.5
  printf '[[cudnn]]\nversion = "5.1.10"\nlib = "%s\\n/opt/elsewhere"\n' "$FAKES/5.1.10/lib64"
} >"$map"
line=$(grep -n '^lib = .*elsewhere' "$map" | cut -d: -f1)
where="$map:$line:7: error: 'lib' in [[cudnn]] holds a control character"
expect_rc 1 "$CUDNN_COMPAT" map validate
has "$where"
[[ ! -e $map.decide ]] || fail "an invalid map got a decision table"
expect_rc 1 "$CUDNN_COMPAT" resolve libcudnn.so.5 --require 5.1
has "$where"
for front in AUDIT PRELOAD; do
  expect_rc 1 env LD_LIBRARY_PATH="$FAKES/5.0.5/lib64" CUDNN_COMPAT_REQUIRE=5.1.3 \
    "LD_$front=$SHIM" "$t/tf2016"
  has "Loaded runtime CuDNN library: 5005"
  count "cudnn-compat:" 1
  has "${where#"$map:"}"
done
