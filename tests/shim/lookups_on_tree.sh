# Issue 23, item 1: in a 10,000-rank job every lookup the shim adds on the shared tree is made
# 10,000 times. In a job's environment (three other modules' directories before cuDNN's on
# LD_LIBRARY_PATH), with a validated table, the shim adds at most two lookups to the loader's own
# for a first load of libcudnn.so.9 and its family, whether it keeps the loader's file or hands
# over another: it hands the loader absolute paths, so the loader walks the path for no cuDNN name
# a second time, and looks the file it hands over up once. Under LD_AUDIT and LD_PRELOAD. (Before,
# it added four and six: the kept file's name walked again by the loader, an faccessat2 and a
# statfs of the file handed over, and a stat of each sub-library before the loader's open.)
source "$(dirname "$0")/common.sh"
command -v strace >/dev/null || skip "strace is not installed (scripts/deps.sh installs it)"
family_client
mkdir -p "$t/site" "$t"/mods/{nccl,openmpi,openblas}/lib
export CUDNN_COMPAT_MAP=$t/site/map.toml CUDNN_COMPAT_REQUIRE=9.1
fake_map 9.0.0 9.1.0 >"$CUDNN_COMPAT_MAP"
expect_rc 0 "$CUDNN_COMPAT" map validate "$CUDNN_COMPAT_MAP"
mods=$t/mods/nccl/lib:$t/mods/openmpi/lib:$t/mods/openblas/lib

# lookups [MODE] RELEASE: $n, the calls that name a path of the releases, the map's directory or
# the other modules, for one load of libcudnn.so.9 and its adv sub-library with RELEASE fourth on
# the path; the client's output in $out.
lookups() {
  expect_rc 0 strace -f -qq -e trace=%file,%desc -o "$t/trace" env LD_LIBRARY_PATH="$mods:$FAKES/$2/lib64" \
    ${1:+LD_${1^^}=$SHIM} "$t/family" libcudnn.so.9 cudnnAdvVersionCheck
  n=$(grep -cE "\"($FAKES|$t/site|$t/mods)/" "$t/trace")
}

for release in 9.1.0 9.0.0; do
  lookups "" $release
  own=$n
  for mode in audit preload; do
    lookups $mode $release
    has "loaded $FAKES/9.1.0/lib64/libcudnn.so.9"
    has "loaded $FAKES/9.1.0/lib64/libcudnn_adv.so.9.1.0"
    ((n <= own + 2)) || fail "$mode, $release fourth: $n lookups on the tree against the loader's own $own:"$'\n'"$(grep -E "\"($FAKES|$t/site|$t/mods)/" "$t/trace")"
    walks=$(grep -cE "\"$t/mods/[a-z]+/lib/libcudnn" "$t/trace" || true)
    ((walks <= 3)) || fail "$mode, $release fourth: cuDNN names looked up $walks times in the other modules' directories (once each for libcudnn.so.9):"$'\n'"$(grep "$t/mods/" "$t/trace")"
  done
done
