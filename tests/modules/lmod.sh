# The Lmod site package on the real Lmod (see check_hooks in common.sh).
source "$(dirname "$0")/common.sh"
[[ -x $lmod_cmd ]] || skip "no Lmod at $lmod_cmd (scripts/deps.sh installs it)"
lmod_tree
module() { lmod_module "$@"; }
swap=swap

# Every generated modulefile passes Lmod's own syntax check, which does catch a broken one.
for m in "${generated[@]}"; do
  expect_rc 0 "$lmod_cmd" bash --checkSyntax load "$m"
done
mkdir -p "$t/lua/broken" && echo 'setenv("X", ' >"$t/lua/broken/1.lua"
expect_rc 1 "$lmod_cmd" bash --checkSyntax load broken/1
rm -r "$t/lua/broken"

check_hooks

# Under on_module_mismatch = "error" the refused command loaded nothing, the framework included:
# Lmod's advice is that command again with the fitting cuDNN, or the swap and then its loads
# (an outside tester's finding: following the advice left the user without TensorFlow).
module purge
strict_map
followed() {  # runs the advice in $t/msg as printed, and checks what is loaded then
  local advice
  advice=$(grep -o 'Use: module [^(]*' "$t/msg" | head -1)
  [[ -n $advice ]] || fail "no advice after the refusal: $(cat "$t/msg")"
  eval "${advice#Use: }" || fail "the advice failed: ${advice#Use: }"
  [[ :$LOADEDMODULES: == *:tensorflow/1.0:* && :$LOADEDMODULES: == *:cudnn/5.1:* ]] ||
    fail "after '${advice#Use: }': $LOADEDMODULES"
}
rc=0; module load tensorflow/1.0 cudnn/5.0 || rc=$?
[[ $rc != 0 && -z ${LOADEDMODULES:-} ]] || fail "strict mode loaded ${LOADEDMODULES:-}"
followed
module purge
module load cudnn/5.0
rc=0; module load tensorflow/1.0 || rc=$?
[[ $rc != 0 && $LOADEDMODULES == cudnn/5.0 ]] || fail "strict mode loaded $LOADEDMODULES"
followed
module purge
cp "$t/map.good" "$t/map.toml"
"$CUDNN_COMPAT" map validate "$t/map.toml" >/dev/null

# A site with its own SitePackage brings ours in with one line.
mkdir -p "$t/site"
printf -- '-- the site'"'"'s own package\ndofile("%s/lmod/SitePackage.lua")\n' "$SHARE" >"$t/site/SitePackage.lua"
module purge
export LMOD_PACKAGE_PATH=$t/site
module load cudnn/5.0 tensorflow/1.0 || true; msg
has "tensorflow/1.0 was built with cuDNN 5.1 but cudnn/5.0 provides 5.0.5"
