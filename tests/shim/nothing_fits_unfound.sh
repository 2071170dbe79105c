# The loader finds no libcudnn.so.5 at all and the map lists cuDNN 5 releases, none of which fits
# the need: the load fails as it would without the shim, with one line that says why and what to
# ask for - in the first process (the engine) and in the next (the memo). An outside tester's
# finding: only a request the loader could meet got a line; this one failed in silence. A major the
# map lists no release of stays silent (frameworks try several names in turn), unless the
# requirement is of that major: CUDNN_COMPAT_REQUIRE=7.6 and a load of libcudnn.so.7 failed with no
# word that no cuDNN 7 is installed.
source "$(dirname "$0")/common.sh"
family_client
fake_map 5.0.5 5.1.10 >"$t/map.toml"
"$CUDNN_COMPAT" map validate "$t/map.toml" >/dev/null
memo_on
settle
mkdir -p "$t/empty"
export LD_LIBRARY_PATH=$t/empty CUDNN_COMPAT_REQUIRE=5.2
for mode in audit preload; do
  for process in first memo; do
    started $mode "$t/family" libcudnn.so.5
    has "dlopen: libcudnn.so.5: cannot open shared object file"
    count "cudnn-compat:" 1
    has "cudnn-compat: libcudnn.so.5: needs 5.2 from CUDNN_COMPAT_REQUIRE, but the loader finds no libcudnn.so.5; no installed cuDNN fits (installed: 5.0.5 (cudnn/5.0.5), 5.1.10 (cudnn/5.1.10)); loading as usual"
    has "Ask the admins for cuDNN 5.2.x"
    if [[ $process == memo ]]; then
      ((started == 0)) || fail "$mode: the memo did not answer:"$'\n'"$trace"
    fi
  done
  rm -rf "$memo" && memo_on
  CUDNN_COMPAT_REQUIRE=7.6 started $mode "$t/family" libcudnn.so.7
  has "dlopen: libcudnn.so.7: cannot open"
  count "cudnn-compat:" 1
  has "cudnn-compat: libcudnn.so.7: needs 7.6 from CUDNN_COMPAT_REQUIRE, but the loader finds no libcudnn.so.7; no installed cuDNN fits (installed: 5.0.5 (cudnn/5.0.5), 5.1.10 (cudnn/5.1.10)); loading as usual. Ask the admins for cuDNN 7.6 or a newer 7.x"
  expect_rc 1 env -u CUDNN_COMPAT_REQUIRE "LD_${mode^^}=$SHIM" "$t/family" libcudnn.so.7
  has "dlopen: libcudnn.so.7: cannot open"
  lacks "cudnn-compat:"
done
# A release the map withholds (a hidden module) was listed as installed like the others, as if a
# user could load it (helper 95): it is named as not handed out.
{ fake_map 5.0.5 5.1.10; echo 'hand_out = false'; } >"$t/map.toml"
"$CUDNN_COMPAT" map validate "$t/map.toml" >/dev/null
rm -rf "$memo" && memo_on
started audit "$t/family" libcudnn.so.5
has "no installed cuDNN fits (installed: 5.0.5 (cudnn/5.0.5), 5.1.10 (cudnn/5.1.10, not handed out)); loading as usual"
# One release in two places, the first withheld: each place keeps its own words inside one pair of
# parentheses ("5.1.10 (cudnn/.5.1, not handed out) (cudnn/5.1)" read as if both were withheld).
cp -a "$FAKES/5.1.10/lib64" "$t/copy"
{
  fake_map 5.0.5
  printf '[[cudnn]]\nversion = "5.1.10"\nlib = ["%s", "%s"]\n' "$FAKES/5.1.10/lib64" "$t/copy"
  printf 'module = ["cudnn/.5.1", "cudnn/5.1"]\nhand_out = [false, true]\n'
} >"$t/map.toml"
"$CUDNN_COMPAT" map validate "$t/map.toml" >/dev/null
rm -rf "$memo" && memo_on
started audit "$t/family" libcudnn.so.5
has "(installed: 5.0.5 (cudnn/5.0.5), 5.1.10 (cudnn/.5.1, not handed out; cudnn/5.1)); loading as usual"
