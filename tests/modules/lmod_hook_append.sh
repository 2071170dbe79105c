# Issue 24 item 2: on an Lmod that offers it (8.7.35 and later: a list per hook name and the
# documented hook.register(name, fn, "append")), the site package uses only that: it neither
# replaces hook.register nor reads Lmod's hook table through debug.getupvalue, and the site's own
# hooks, registered before or after it with "append", run beside ours. Lmod 8.7.35 cannot be
# installed here (Debian 12 has 8.6.19, tested on the real Lmod by site_hooks_lmod.sh), so this
# runs SitePackage.lua under plain Lua against a FAKE Hook module written to 8.7.35's documented
# interface (Lmod's docs/source/170_hooks.rst, src/Hook.lua).
source "$(dirname "$0")/common.sh"
command -v lua5.3 >/dev/null || skip "no lua5.3 (Debian's lmod brings it)"
lua5.3 -e 'require("lfs")' 2>/dev/null || skip "no Lua lfs (Debian's lmod brings lua-filesystem)"
cat >"$t/fake_lmod.lua" <<'LUA'
local share, order, version = ...
-- FAKE Hook: Lmod 8.7.35's documented register(name, fn, action) and apply.
local validT = {load = {}, unload = {}, finalize = {}}
local Hook = {}
function Hook.register(name, fn, action)
  if action == "append" then validT[name][#validT[name] + 1] = fn
  elseif action == "prepend" then table.insert(validT[name], 1, fn)
  else validT[name] = {fn} end
end
function Hook.apply(name, ...)
  local r
  for _, fn in ipairs(validT[name]) do r = fn(...) end
  return r
end
package.preload["Hook"] = function() return Hook end
function LmodVersion() return version end
function sandbox_registration() end
local original_register, peeked = Hook.register, false
local getupvalue = debug.getupvalue
debug.getupvalue = function(...) peeked = true; return getupvalue(...) end
local ran = {}
local function site() Hook.register("load", function() ran[#ran + 1] = "site" end, "append") end
if order == "before" then site() end
dofile(share .. "/lmod/SitePackage.lua")
if order == "after" then site() end
-- Ours only notes the load (its finalize checks once per command); the site's logs it.
Hook.apply("load", {})
print(("version=%s order=%s register-replaced=%s getupvalue=%s load-hooks=%d site-ran=%d ours=%s")
  :format(version, order, tostring(Hook.register ~= original_register), tostring(peeked),
          #validT.load, #ran, tostring(validT.finalize[#validT.finalize] == cudnn_compat_hooks.finalize)))
LUA
for order in before after; do
  for version in 8.7.35 8.7.37 9.0.2; do
    out=$(lua5.3 "$t/fake_lmod.lua" "$SHARE" "$order" "$version")
    has "register-replaced=false getupvalue=false load-hooks=2 site-ran=1 ours=true"
  done
done
# An Lmod before 8.7.35 (the real 8.6.19 in site_hooks_lmod.sh) takes the other path.
out=$(lua5.3 "$t/fake_lmod.lua" "$SHARE" before 8.7.34)
has "register-replaced=true getupvalue=true"
