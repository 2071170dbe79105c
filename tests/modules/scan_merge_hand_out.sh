# A hidden module's place the admin hands out after all (hand_out = true, as admin-guide says)
# stays handed out through scan --merge, whether its module is hidden by its name (cudnn/.9.1) or
# by the modulerc (hide_version("cudnn/8.9")); scan's own default for a hidden module applies to
# what it adds, and where the map says nothing (admin tester helper 115, finding 1: one merge set
# it back to hand_out = false).
source "$(dirname "$0")/common.sh"
use_system lmod
hidden_site
scan() { expect_rc 0 "$CUDNN_COMPAT" scan --modules lmod "$@" -o "$t/map.toml"; }
scan --replace
out=$(cat "$t/map.toml"); count "hand_out = false" 2
sed -i 's/^hand_out = false$/hand_out = true/' "$t/map.toml"
expect_rc 0 cc map validate "$t/map.toml"
expect_rc 0 cc resolve libcudnn.so.9 --require 9.1.0 --rule exact
has "$FAKES/9.1.0/lib64/libcudnn.so.9"
for merge in 1 2; do  # the second reads what the first wrote
  scan --merge
  lacks "not handed out"
  out=$(cat "$t/map.toml"); count "hand_out = true" 2; lacks "hand_out = false"
  grep -A4 'version = "8.9.7"' "$t/map.toml" | grep -q 'hand_out = true' || fail "8.9.7 withheld: $(cat "$t/map.toml")"
  expect_rc 0 cc resolve libcudnn.so.9 --require 9.1.0 --rule exact
  has "$FAKES/9.1.0/lib64/libcudnn.so.9"
done
# Withdrawn stays withdrawn: the admin's hand_out = false, and scan's, stay too.
sed -i 's/^hand_out = true$/hand_out = false/' "$t/map.toml"
scan --merge
out=$(cat "$t/map.toml"); count "hand_out = false" 2
