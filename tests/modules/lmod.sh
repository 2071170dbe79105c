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

# A site with its own SitePackage brings ours in with one line.
mkdir -p "$t/site"
printf -- '-- the site'"'"'s own package\ndofile("%s/lmod/SitePackage.lua")\n' "$SHARE" >"$t/site/SitePackage.lua"
module purge
export LMOD_PACKAGE_PATH=$t/site
module load cudnn/5.0 tensorflow/1.0 || true; msg
has "tensorflow/1.0 was built with cuDNN 5.1 but cudnn/5.0 provides 5.0.5"
