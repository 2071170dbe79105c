# A site's own Lmod SitePackage.lua with its own load and finalize hooks, unedited, and ours both
# run, whether the site brings ours in before or after registering its hooks (issue 12 item 3).
source "$(dirname "$0")/common.sh"
[[ -x $lmod_cmd ]] || skip "no Lmod at $lmod_cmd (scripts/deps.sh installs it)"
lmod_tree
module() { lmod_module "$@"; }
site_hooks='local hook = require("Hook")
local function log(s) local f = io.open(os.getenv("HOME") .. "/usage.log", "a"); f:write(s, "\n"); f:close() end
hook.register("load", function(t) log("load " .. t.modFullName) end)
hook.register("finalize", function(cmd) log("finalize " .. cmd) end)'
ours="dofile(\"$SHARE/lmod/SitePackage.lua\")"
mkdir -p "$t/before" "$t/after" "$t/legacy"
printf '%s\n%s\n' "$ours" "$site_hooks" >"$t/before/SitePackage.lua"
printf '%s\n%s\n' "$site_hooks" "$ours" >"$t/after/SitePackage.lua"
# A site that followed the old instructions and calls our functions from its own hooks: one warning.
printf '%s\n%s\n' "$ours" "${site_hooks//log(\"finalize \" .. cmd)/log(\"finalize \" .. cmd); cudnn_compat_finalize()}" \
  >"$t/legacy/SitePackage.lua"
for order in before after legacy; do
  export LMOD_PACKAGE_PATH=$t/$order
  rm -f "$t/usage.log"
  module load cudnn/5.0 tensorflow/1.0 || true; msg
  occurs "tensorflow/1.0 was built with cuDNN 5.1 but cudnn/5.0" 1
  out=$(cat "$t/usage.log" 2>/dev/null || true)
  has "load cudnn/5.0"
  has "load tensorflow/1.0"
  count "finalize load" 1
  module purge
done
