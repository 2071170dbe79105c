# A family's directory that lacks a sub-library's exact name but links a shorter one to another
# release's file (libcudnn_heuristic.so.9 -> libcudnn_heuristic.so.9.0.0 beside a 9.1.0, copied by
# hand). Under LD_PRELOAD the shim cannot decide the dispatcher a linked program loads, but it sees
# each sub-library name: the heuristic comes from another place of exactly 9.1.0 (the map's), or
# from nowhere with one line - never the 9.0.0 file (an outside tester's finding: the shim handed it
# over as "the family of" the copy, cudnnCreate returned 1002). Under LD_AUDIT too.
source "$(dirname "$0")/common.sh"
mkdir -p "$t/copy"
cp -a "$FAKES/9.1.0/lib64/." "$t/copy/"
rm "$t/copy/libcudnn_heuristic.so.9.1.0" "$t/copy/libcudnn_heuristic.so.9"
cp "$FAKES/9.0.0/lib64/libcudnn_heuristic.so.9.0.0" "$t/copy/"
ln -s libcudnn_heuristic.so.9.0.0 "$t/copy/libcudnn_heuristic.so.9"
compile linked -L"$t/copy" -l:libcudnn.so.9 -Wl,-rpath,"$t/copy" <<'C'
#include <stdio.h>
int cudnnCreate(void **);
int main(void) {
  void *h = 0;
  const int s = cudnnCreate(&h);
  printf("cudnnCreate = %d\n", s);
  return s ? 3 : 0;
}
C
export CUDNN_COMPAT_REQUIRE=9.1
expect_rc 3 "$t/linked"
has "cudnnCreate = 1002"

fake_map 9.0.0 9.1.0 >"$t/map.toml"
export CUDNN_COMPAT_MAP=$t/map.toml
expect_rc 0 "$CUDNN_COMPAT" map validate "$CUDNN_COMPAT_MAP"
for mode in audit preload; do
  expect_rc 0 $mode "$t/linked"
  has "cudnnCreate = 0"
  lacks "cudnn-compat:"
done

# No other place of 9.1.0: the load fails, with one line that says why.
fake_map 9.0.0 >"$t/map.toml"
expect_rc 0 "$CUDNN_COMPAT" map validate "$CUDNN_COMPAT_MAP"
expect_rc 3 preload "$t/linked"
has "cudnnCreate = 1008"
count "cudnn-compat:" 1
has "libcudnn_heuristic.so.9 links to $t/copy/libcudnn_heuristic.so.9.0.0, another release's file, in $t/copy, where this process's cuDNN 9.1.0 comes from"

# The file the links end at decides, not a link's name on the way (an outside tester's finding:
# .so.9 -> .so.9.0.0 -> sub/.so.9.1.0, a genuine 9.1.0, was refused and cudnnCreate failed).
rm "$t/copy/libcudnn_heuristic.so.9.0.0"
mkdir -p "$t/copy/sub"
cp "$FAKES/9.1.0/lib64/libcudnn_heuristic.so.9.1.0" "$t/copy/sub/"
ln -s sub/libcudnn_heuristic.so.9.1.0 "$t/copy/libcudnn_heuristic.so.9.0.0"
expect_rc 0 preload "$t/linked"
has "cudnnCreate = 0"
lacks "cudnn-compat:"

# A process told once is not told twice: the copy loaded by its path, no map to be had, under
# LD_AUDIT (the engine's line about the copy; the sub-library it then refuses says nothing more).
rm "$t/copy/libcudnn_heuristic.so.9.0.0"
cp "$FAKES/9.0.0/lib64/libcudnn_heuristic.so.9.0.0" "$t/copy/"
family_client
for mode in audit preload; do
  CUDNN_COMPAT_MAP=$t/no-map.toml expect_rc 3 $mode "$t/family" "$t/copy/libcudnn.so.9" cudnnCreate
  count "cudnn-compat:" 1
done

# The exact name itself links to another release's file (helper 52): the engine says the copy does
# not load and keeps the loader's choice; the family rule then looks at its exact names too and
# hands over none of 9.0.0's files (cudnnCreate fails 1008, the family missing a member, where it
# failed 1002 with 9.0.0's heuristic mapped). Families the decision did not warn about still get
# their exact names unlooked.
rm -f "$t/copy/libcudnn_heuristic.so.9" "$t/copy/libcudnn_heuristic.so.9.0.0"
ln -s "$FAKES/9.0.0/lib64/libcudnn_heuristic.so.9.0.0" "$t/copy/libcudnn_heuristic.so.9.1.0"
ln -s libcudnn_heuristic.so.9.1.0 "$t/copy/libcudnn_heuristic.so.9"
for mode in audit preload; do
  CUDNN_COMPAT_MAP=$t/no-map.toml expect_rc 3 $mode "$t/family" "$t/copy/libcudnn.so.9" cudnnCreate
  has "cudnnCreate = 1008"
  lacks "loaded $t/copy/libcudnn_heuristic"
  lacks "loaded $FAKES/9.0.0"
  count "cudnn-compat:" 1
done
