# Issue 23, item 1: in a 10,000-rank job every lookup the shim adds on the shared tree is made
# 10,000 times. In a job's environment (three other modules' directories before cuDNN's on
# LD_LIBRARY_PATH), with a validated table, a redirect adds at most two lookups to the loader's own
# for a first load of libcudnn.so.9 and its family: the file handed over is looked up once before
# the loader's open (its identity, that this process may read it and map it executable), and no
# sub-library name is looked up outside the family's directory, by the shim or the loader. Keeping
# the loader's own file adds at most four: the shim's own walk to it, which the loader then makes
# again (handing the loader that path would skip a file the loader itself passes over: one this
# user cannot read, a glibc-hwcaps subdirectory's), and the map and its directory. Under LD_AUDIT
# and LD_PRELOAD. (Before, a redirect added five: an faccessat2 and a statfs of the file handed
# over, and a stat of each sub-library before the loader's open.)
source "$(dirname "$0")/common.sh"
command -v strace >/dev/null || skip "strace is not installed (scripts/deps.sh installs it)"
family_client
mkdir -p "$t/site" "$t"/mods/{nccl,openmpi,openblas}/lib
export CUDNN_COMPAT_MAP=$t/site/map.toml CUDNN_COMPAT_REQUIRE=9.1
fake_map 9.0.0 9.1.0 >"$CUDNN_COMPAT_MAP"
expect_rc 0 "$CUDNN_COMPAT" map validate "$CUDNN_COMPAT_MAP"
mods=$t/mods/nccl/lib:$t/mods/openmpi/lib:$t/mods/openblas/lib
on_tree="\"($FAKES|$t/site|$t/mods)/"

# lookups [MODE] RELEASE: $n, the calls that name a path of the releases, the map's directory or
# the other modules, for one load of libcudnn.so.9 and its adv sub-library with RELEASE fourth on
# the path; the client's output in $out.
lookups() {
  expect_rc 0 strace -f -qq -e trace=%file,%desc -o "$t/trace" env LD_LIBRARY_PATH="$mods:$FAKES/$2/lib64" \
    ${1:+LD_${1^^}=$SHIM} "$t/family" libcudnn.so.9 cudnnAdvVersionCheck
  n=$(grep -cE "$on_tree" "$t/trace")
}

for release in 9.0.0 9.1.0; do
  lookups "" $release
  own=$n most=$([[ $release == 9.0.0 ]] && echo 2 || echo 4)
  for mode in audit preload; do
    lookups $mode $release
    has "loaded $FAKES/9.1.0/lib64/libcudnn.so.9"
    has "loaded $FAKES/9.1.0/lib64/libcudnn_adv.so.9.1.0"
    ((n <= own + most)) || fail "$mode, $release fourth: $n lookups on the tree against the loader's own $own (at most $most more):"$'\n'"$(grep -E "$on_tree" "$t/trace")"
    ! grep -E "\"$t/mods/[a-z]+/lib/libcudnn_" "$t/trace" || fail "$mode, $release fourth: a sub-library looked up outside the family's directory"
    handed=$(grep -cE "\"$FAKES/9.1.0/lib64/libcudnn.so.9\"" "$t/trace" || true)
    ((handed <= 2)) || fail "$mode, $release fourth: the file loaded looked up $handed times:"$'\n'"$(grep -E "$on_tree" "$t/trace")"
  done
done
