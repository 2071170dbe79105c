# scan over the test tree, through the real Lmod and the real Environment Modules: every cuDNN
# module with its true version (hidden ones too; the module's name is never trusted), installs
# without a module from --search, broken modules reported; --merge keeps the admin's hand edits.
source "$(dirname "$0")/common.sh"
[[ -x $lmod_cmd && -f $modulecmd ]] || skip "needs Lmod and Environment Modules (scripts/deps.sh)"
lmod_tree
tcl_tree
# A hidden module, the only one for FAKE 6.0.21, named as if it were something else entirely.
printf 'prepend_path("LD_LIBRARY_PATH", "%s")\n' "$FAKES/6.0.21/lib64" >"$t/lua/cudnn/.7.0-debug.lua"
printf '#%%Module\nprepend-path LD_LIBRARY_PATH %s\n' "$FAKES/6.0.21/lib64" >"$t/tcl/cudnn/.7.0-debug"
# A broken module: its directory does not exist.
printf 'prepend_path("LD_LIBRARY_PATH", "%s")\n' "$t/gone" >"$t/lua/cudnn/4.0.lua"
printf '#%%Module\nprepend-path LD_LIBRARY_PATH %s\n' "$t/gone" >"$t/tcl/cudnn/4.0"

# version|module|cuda of every entry of a map, sorted.
pairs() { awk -F' = ' '/^\[\[cudnn\]\]/{if(v)print v"|"m"|"c; v=m=c=""} /^version/{v=$2} /^module/{m=$2} /^cuda/{c=$2} END{if(v)print v"|"m"|"c}' "$1" | tr -d '"' | sort; }
expected=$(printf '%s\n' "5.0.5|cudnn/5.0|" "5.1.10|cudnn/5.1|" "6.0.21|cudnn/.7.0-debug|8.0" \
  "7.6.5|cudnn/7.6|10.2" "8.9.7|cuDNN/8.9.7.29-CUDA-12.2.0|12.2" "9.1.0|cudnn/9.1|12.4" | sort)

for system in lmod envmodules; do
  if [[ $system == lmod ]]; then tree=$t/lua; else tree=$t/tcl; fi
  expect_rc 0 env MODULEPATH="$tree" MODULES_CMD="$modulecmd" \
    "$CUDNN_COMPAT" scan --modules $system -o "$t/scanned-$system.toml"
  has "module cudnn/4.0: no libcudnn.so.<major> in what it adds to LD_LIBRARY_PATH"
  got=$(pairs "$t/scanned-$system.toml" | grep -v cudnn/9-real || true)
  [[ $got == "$expected" ]] || fail "$system scan:"$'\n'"$got"$'\n'"expected:"$'\n'"$expected"
  [[ -f $t/scanned-$system.toml.cache ]] || fail "no cache beside the scanned map"
  expect_rc 0 "$CUDNN_COMPAT" map validate --probe "$t/scanned-$system.toml"
done

# Installs without a module (scan_real.sh: the real cuDNN under /usr/local/cuda).
expect_rc 0 "$CUDNN_COMPAT" scan --modules none --search "$FAKES/9.1.0"
has 'version = "9.1.0"'

# --merge: the admin's policy, [[require]] rule and hand-written entry stay; a release that is gone
# is dropped and said so; one the admin deleted comes back.
map=$t/site.toml
cp "$t/scanned-lmod.toml" "$map"
mkdir "$t/handmade" && cp -P "$FAKES"/5.1.10/lib64/libcudnn.so* "$t/handmade/"
sed -i 's/^rule = "nvidia"$/rule = "tensorflow-2016"/' "$map"
awk 'BEGIN{RS="";ORS="\n\n"} !/cudnn\/7.6"/' "$map" >"$map.tmp" && mv "$map.tmp" "$map"
cat >>"$map" <<MAP
[[cudnn]]
version = "5.1.10"
lib = "$t/handmade"
cuda = "8.0"

[[cudnn]]
version = "7.0.5"
lib = "$t/vanished"
module = "cudnn/7.0"

[[require]]
match = "/opt/apps/tensorflow/1.0/*"
cudnn = "5.1"
MAP
expect_rc 0 env MODULEPATH="$t/lua" "$CUDNN_COMPAT" scan --modules lmod --merge -o "$map"
has "scan: added cuDNN 7.6.5 for CUDA 10.2 (cudnn/7.6) in $FAKES/7.6.5/lib64"
has "scan: dropped cuDNN 7.0.5 (cudnn/7.0) in $t/vanished (the directory holds no cuDNN any more)"
out=$(cat "$map")
has 'rule = "tensorflow-2016"'
has 'match = "/opt/apps/tensorflow/1.0/*"'
has "lib = \"$t/handmade\""
lacks "$t/vanished"
[[ -f $map.bak ]] && grep -q "$t/vanished" "$map.bak" || fail "the old map was not kept as $map.bak"
expect_rc 0 "$CUDNN_COMPAT" map validate "$map"

# Hundreds of modules: progress on stderr.
mkdir -p "$t/many/cudnn"
for i in $(seq 1 30); do
  printf 'prepend_path("LD_LIBRARY_PATH", "%s")\n' "$FAKES/5.1.10/lib64" >"$t/many/cudnn/5.1.$i.lua"
done
expect_rc 0 env MODULEPATH="$t/many" "$CUDNN_COMPAT" scan --modules lmod
has "scan: probing 30/30"
