# Issue 20, item 4 at scale: the memo's entries name the build of the engine that wrote them, and
# the shim believes only those of the engine it was built with - no stat of the engine's file in
# every warm process (on a shared install, one metadata operation per rank). An install whose
# engine is of another build (half replaced) is never answered from that engine's entries: each
# process asks it anew, and still loads right. Under LD_AUDIT and LD_PRELOAD.
source "$(dirname "$0")/common.sh"
command -v strace >/dev/null || skip "strace is not installed (scripts/deps.sh installs it)"
command -v readelf >/dev/null || skip "readelf is not installed (binutils)"
memo_setting
own_shim
settle

engine=$t/lib/cudnn-compat-select
for mode in audit preload; do
  rm -rf "$memo"
  case="the first process" decided_right some
  case="a warm process" decided_right 0
  # A warm process stats no engine file: the entry's build line stands for it.
  expect_rc 0 strace -f -qq -e trace=%file -o "$t/files" env "LD_${mode^^}=$SHIM" "$t/family" libcudnn.so.9
  ! grep -F "$engine" "$t/files" || fail "$mode: a warm process looked at the engine's file:"$'\n'"$(<"$t/files")"
done

# The engine of another build: its ID changed in place (same size; what readelf -n prints).
id=$(readelf -n "$engine" | sed -n 's/.*Build ID: \([0-9a-f]*\).*/\1/p')
[[ -n $id ]] || fail "the engine has no build ID"
other=$(printf '%02x' $(( (0x${id:0:2} + 1) % 256 )))${id:2}
python3 - "$engine" "$id" "$other" <<'PY'
import sys
path, old, new = sys.argv[1], bytes.fromhex(sys.argv[2]), bytes.fromhex(sys.argv[3])
data = open(path, "rb").read()
assert data.count(old) == 1, "the build ID is not in the file once"
open(path, "wb").write(data.replace(old, new))
PY
readelf -n "$engine" | grep -q "Build ID: $other" || fail "the engine's ID did not change"
settle
for mode in audit preload; do
  rm -rf "$memo"
  case="another build's engine, first" decided_right some
  grep -q "^build	$other\$" "$memo"/*.memo || fail "$mode: the engine did not name its build:"$'\n'"$(cat "$memo"/*.memo)"
  case="another build's engine, again" decided_right some
done
