# An entry whose module is still in the module tree but whose directory is missing right now (a
# file system briefly away during the nightly scan --merge) is kept as it was, with a line saying
# so, and the admin's retire_after and hand_out with it; back, it is found again unchanged (admin
# tester helper 115, finding 2: it was dropped, exit 0, and the next merge added it back bare).
source "$(dirname "$0")/common.sh"
[[ -x $lmod_cmd ]] || skip "no Lmod at $lmod_cmd (scripts/deps.sh installs it)"
site_tree
site_lmod
map=$t/map.toml lib=$t/site/opt/cudnn/5.1/lib64
merge() { expect_rc 0 "$CUDNN_COMPAT" scan --modules lmod --merge -o "$map" "$@"; }
expect_rc 0 "$CUDNN_COMPAT" scan --modules lmod --replace -o "$map"
sed -i 's|^module = "cudnn/5.1"$|module = "cudnn/5.1"\nhand_out = false\nretire_after = "2027-03-01"|' "$map"
expect_rc 0 cc map validate "$map"
cp "$map" "$t/edited.toml"
mv "$lib" "$lib.offline"
for prune in "" --prune; do  # --prune drops what left the module tree; this has not
  merge $prune
  has "scan: cuDNN 5.1.10 (cudnn/5.1) in $lib, not handed out: its directory holds no cuDNN now (missing or unreadable), though module cudnn/5.1 is in the module tree; kept as it was"
  lacks "dropped"
  diff "$t/edited.toml" "$map" || fail "the entry of cudnn/5.1 changed in the outage"
done
mv "$lib.offline" "$lib"
merge
lacks "cudnn/5.1"
diff "$t/edited.toml" "$map" || fail "the entry of cudnn/5.1 changed after the outage"
# A module that left the tree with its directory is no outage: dropped, as before.
mv "$t/site/lua/Core/cudnn/5.1.lua" "$t/removed.lua"; rm "$t/site/lua/Core/cudnn/default"
rm -r "$lib"
merge
has "scan: dropped cuDNN 5.1.10 (cudnn/5.1) in $lib, not handed out (the directory holds no cuDNN any more)"
