-- cudnn-compat's Lmod site package: warns (or, with [policy] on_module_mismatch = "error", fails
-- the whole command) when the loaded cuDNN module does not fit a loaded application, and warns
-- when it cannot run on this node's GPUs or driver (docs/gpu.md).
--
-- Use it as the site package:   export LMOD_PACKAGE_PATH=<prefix>/share/cudnn-compat/lmod
-- or from an existing one:      dofile("<prefix>/share/cudnn-compat/lmod/SitePackage.lua")
-- anywhere in it: the site's own "load" and "finalize" hooks keep running beside ours.
--
-- An application's modulefile says what it was built with:
--   cudnn_requires("5.1")                  -- or cudnn_requires("8.9", {cuda = "12"})
-- which is short for the standard commands (that work without this package)
--   prepend_path("CUDNN_COMPAT_NEEDS", "tensorflow/1.0=5.1")   -- "<module>=<version>[,cuda=N]"
--   pushenv("CUDNN_COMPAT_REQUIRE", "5.1")                     -- for the shim
-- Lmod undoes both on unload; the hook reads the loaded needs from CUDNN_COMPAT_NEEDS.
--
-- The check runs once per module command, after all its loads, unloads and swaps, on the final
-- loaded set; the versions and the rule come from the version map through `cudnn-compat
-- module-check`, the same engine the shim uses. Nothing here may break `module load`: every fault
-- of ours ends in at most one line.
local hook = require("Hook")
local lfs = require("lfs")

-- The installation this file belongs to, from the file's own path (share/cudnn-compat/lmod/ under
-- the prefix): an installed tree that was moved keeps working. Its names, formats and layout come
-- from the contract beside it (site_contract.lua, generated from cmake/SiteContract.cmake), its
-- tables are read by site_tables.lua; both are loaded by a command that loaded a module (the GPU
-- check reads the node's facts, then the decision table only where they are known); a command that
-- loads nothing costs what it did.
local cudnn_compat_here = (debug.getinfo(1, "S").source:match("^@(.*)$") or "./SitePackage.lua")
  :match("^(.*)/[^/]*$") or "."
local site, site_tables, cudnn_compat_bin

-- A path relative to this file's directory, its ".." taken off the directory ("" stays here).
local function from_here(rel)
  if rel:sub(1, 1) == "/" then return rel end
  local dir = cudnn_compat_here
  for part in rel:gmatch("[^/]+") do
    if part == ".." then dir = dir:match("^(.*)/[^/]*$") or "." else dir = dir .. "/" .. part end
  end
  return dir
end

local function load_contract()
  if site then return end
  site = dofile(cudnn_compat_here .. "/site_contract.lua")
  site_tables = loadfile(cudnn_compat_here .. "/site_tables.lua")(site)
  cudnn_compat_bin = os.getenv("CUDNN_COMPAT_BIN") or
    (from_here(site.prefix_from_here) .. "/" .. site.bindir .. "/cudnn-compat")
end
local loads_seen = false
-- The modules this command loaded and unloaded, in order: a refused command leaves none of its
-- loads behind and its unloads undone.
local command_now = {loaded = {}, unloaded = {}}

-- An application's need travels as state the module system itself sets and undoes: a path-like
-- entry "<module>=<version>[,cuda=N]" in CUDNN_COMPAT_NEEDS per loaded application (Lmod removes
-- it on unload, entry by entry), and CUDNN_COMPAT_REQUIRE / CUDNN_COMPAT_CUDA for the shim. A
-- modulefile may write the same two lines itself and then needs no site package at all.
local needs_var = "CUDNN_COMPAT_NEEDS"

function cudnn_requires(version, opts)
  local need = tostring(version)
  if type(opts) == "table" and opts.cuda then
    need = need .. ",cuda=" .. tostring(opts.cuda)
    pushenv("CUDNN_COMPAT_CUDA", tostring(opts.cuda))
  end
  prepend_path(needs_var, myModuleFullName() .. "=" .. need)
  -- pushenv: unloading one of two applications gives the shim the other's need back (setenv
  -- unset it).
  pushenv("CUDNN_COMPAT_REQUIRE", tostring(version))
end

-- The needs of the loaded applications as this command leaves them: Lmod's pending value of
-- CUDNN_COMPAT_NEEDS (its var table holds what the command's loads and unloads did), else the
-- value this command did not touch.
local function loaded_needs()
  local v = require("FrameStk"):singleton():varT()[needs_var]
  local value
  if v then value = v:expand() else value = os.getenv(needs_var) end
  local needs = {}
  for entry in tostring(value or ""):gmatch("[^:]+") do
    if entry:find("=", 2, true) then needs[#needs + 1] = entry end
  end
  return needs
end

-- Runs argv and returns what it printed (stdout and stderr) and whether it ran at all (127: the
-- program could not be started). Forks Lmod itself and execs the program directly when luaposix
-- is there (Lmod needs it, so it always is): a shell in between would cost every checked
-- `module load` another millisecond.
local function run(argv)
  local ok, posix = pcall(require, "posix")
  if not ok or not posix.fork then
    local words = {}
    for i, a in ipairs(argv) do words[i] = "'" .. tostring(a):gsub("'", "'\\''") .. "'" end
    local p = io.popen(table.concat(words, " ") .. " 2>&1")
    if not p then return "", false end
    local out = p:read("*a")
    local _, _, code = p:close()
    return out, code ~= 127
  end
  local r, w = posix.pipe()
  if not r then return "", false end
  local pid = posix.fork()
  if pid == 0 then
    posix.close(r)
    posix.dup2(w, 1)
    posix.dup2(w, 2)
    posix.execp(argv[1], {table.unpack(argv, 2)})
    posix._exit(127)
  end
  posix.close(w)
  local chunks = {}
  while pid and pid > 0 do
    local data = posix.read(r, 65536)
    if not data or data == "" then break end
    chunks[#chunks + 1] = data
  end
  posix.close(r)
  local status = nil
  if pid and pid > 0 then
    local _, _, code = posix.wait(pid)
    status = code
  end
  return table.concat(chunks), pid ~= nil and status ~= 127
end

-- The map, looked up in the engine's order.
local function map_path()
  local m = os.getenv("CUDNN_COMPAT_MAP")
  if m and m ~= "" then return m end
  -- Installed under /usr, the installed map is the system map (there is no /usr/etc).
  local fhs = cudnn_compat_here == site.fhs_here and site.map_from_here:sub(1, 1) ~= "/"
  for _, p in ipairs({fhs and site.system_map or from_here(site.map_from_here), site.system_map}) do
    if lfs.attributes(p) then return p end
  end
end

-- Whether the map asks for module commands to fail on a misfit, read here for when the engine
-- that would say so cannot be run.
local function strict()
  local f = io.open(map_path() or "", "r")
  if not f then return false end
  local text = "\n" .. f:read("*a")
  f:close()
  return text:match('\n%s*on_module_mismatch%s*=%s*["\']error["\']') ~= nil
end

-- map.toml.fits, written by the engine with the map (see format_fits_table), when the contract's
-- rule believes it (site_tables.lua): the pairs it lists as fitting need no process.
local function fits_table()
  local lines = site_tables.read(map_path() or "", site.fits_suffix, site.fits_format)
  if not lines then return nil end
  local t = {M = {}, N = {}, F = {}, modules = {}}
  for _, line in ipairs(lines) do
    local kind, rest = line:match("^(%u)\t(.*)$")
    if kind and t[kind] then t[kind][rest] = true end
    if kind == "M" then t.modules[#t.modules + 1] = rest end
  end
  return t
end

-- A loaded cuDNN module the map does not list (a user's own): the contract's rule for a cuDNN
-- module's name (the first component, lower-cased, holds the word and is not our own module).
local function unlisted_cudnn(t, m)
  local sn = m:match("^[^/]*"):lower()
  return not t.M[m] and sn:find(site.cudnn_word, 1, true) ~= nil and sn ~= site.own_module
end

-- The findings for the loaded set from map.toml.misfits, as {severity, message} pairs in
-- module-check's order (the map's modules, then the needs as loaded); nil when a pair is not
-- there (a misfit whose advice depends on the application's toolchain, a need the fits table t
-- does not know): module-check is asked then.
local function table_findings(t, loaded, entries)
  -- Its advice is for one application: beside another, only a release fitting both will do.
  if #entries > 1 then return nil end
  for _, m in ipairs(loaded) do
    if unlisted_cudnn(t, m) then return nil end
  end
  local lines = site_tables.read(map_path() or "", site.misfits_suffix, site.misfits_format)
  if not lines then return nil end
  local group, warn, is_loaded = {}, {}, {}
  for _, line in ipairs(lines) do
    local m, g = line:match("^G\t(.*)\t(%d+)$")
    if m then group[m] = g end
    local wg, rest = line:match("^W\t(%d+)\t(.*)$")
    if wg then
      local need, severity, text = rest:match("^([^\t]*)\t([^\t]*)\t(.*)$")
      if need then warn[wg .. "\t" .. need] = {severity, text} end
    end
  end
  for _, m in ipairs(loaded) do is_loaded[m] = true end
  local findings = {}
  for _, m in ipairs(t.modules) do
    if is_loaded[m] then
      if not group[m] then return nil end
      for _, entry in ipairs(entries) do
        local app, need = entry:match("^(.-)=(.*)$")
        if not t.N[need] then return nil end
        if not t.F[m .. "\t" .. need] then
          local w = warn[group[m] .. "\t" .. need]
          if not w then return nil end
          local text = w[2]:gsub(site.swap_mark, "swap"):gsub(site.module_mark, function() return m end)
          findings[#findings + 1] = {w[1], app .. text}
        end
      end
    end
  end
  return findings
end

-- Whether the table decides every (loaded cuDNN module, need) pair as fitting. A loaded cuDNN
-- module the map does not list is not in it: the engine probes its library.
local function all_fit(t, loaded, needs)
  for _, m in ipairs(loaded) do
    if unlisted_cudnn(t, m) then return false end
  end
  for _, n in ipairs(needs) do
    if not t.N[n] then return false end
    for _, m in ipairs(loaded) do
      if t.M[m] and not t.F[m .. "\t" .. n] then return false end
    end
  end
  return true
end

-- ---------------------------------------------------------------------------------------------
-- The node's GPUs (issue 22, docs/gpu.md): whether each loaded cuDNN module's release can run on
-- this node's GPUs and driver. The verdicts are the engine's, written with the map into its
-- decision table (map.toml.decide: a "run" row per release lists the known GPUs it runs on and the
-- least driver CUDA it needs, "rel" rows its module, "fit" rows the releases best first); the
-- node's facts are the overrides or the node file the engine wrote for this boot. Nothing here
-- judges device code: a GPU the table does not list, a node not learnt yet, say nothing.

-- The file's text (at most limit bytes when given), or nil.
local function read_text(path, limit)
  local f = io.open(path, "rb")
  if not f then return nil end
  local text = f:read(limit or "*a") or ""
  f:close()
  return text
end

-- "7.5" -> 75 (scale 10, 1), "12.2" -> 12020 (scale 1000, 10): the table's numbering; nil when
-- not X.Y, X one or two digits and not 0, Y one digit (every reader's grammar, docs/contract.md).
local function dotted(s, major_scale, minor_scale)
  local a, b = tostring(s or ""):match("^(%d%d?)%.(%d)$")
  if not a or tonumber(a) == 0 then return nil end
  return tonumber(a) * major_scale + tonumber(b) * minor_scale
end

local function gpu_list(text)
  local gpus = {}
  -- Every item, the empty ones too ("7.5," is no list, as for every reader).
  for g in (tostring(text) .. ","):gmatch("([^,]*),") do
    local n = dotted(g, 10, 1)
    if not n then return nil end
    gpus[#gpus + 1] = n
  end
  return gpus
end

-- The node file's grammar (shim/shared/node_file.h): its five lines in this order, each
-- "key\tvalue" with no control character in the value, then the end line and nothing after; its
-- values by key, or nil for anything else (a CR, a NUL, a line twice, a file too large).
local function parse_node_file(text)
  if #text > site.node_file_max or text:gsub("[\t\n]", ""):find("%c") then return nil end
  local f, at = {}, 1
  for _, k in ipairs(site.node_file_keys) do
    local v, after = text:match("^" .. k .. "\t([^\t\n]*)\n()", at)
    if not v then return nil end
    f[k], at = v, after
  end
  if text:sub(at) ~= site.end_line .. "\n" then return nil end
  return f
end

-- The name when it may be part of the node file's name (no '/', no control character), or nil
-- (shim/shared/node_file.h).
local function usable_node_name(name)
  if name and name ~= "" and not name:find("[/%c]") then return name end
  return nil
end

-- {gpus = {70, ...}, driver = 12020 or nil, words = "compute capability 7.0 (NVML)"}, or nil.
local function node_facts()
  local gpu, driver = os.getenv("CUDNN_COMPAT_GPU_ARCH"), os.getenv("CUDNN_COMPAT_DRIVER_CUDA")
  local f = {}
  if (gpu or "") ~= "" or (driver or "") ~= "" then
    -- One override and the rest learnt, or a bad value: the engine's to say.
    f = {gpus = gpu, driver = driver, source = "CUDNN_COMPAT_GPU_ARCH", problem = ""}
  else
    local uid = (read_text("/proc/self/status") or ""):match("\nUid:%s+%d+%s+(%d+)")
    local boot = (read_text(site.boot_id) or ""):match("^%s*(%S+)")
    -- A $SLURMD_NODENAME that cannot be a file's name is passed over, as every reader does.
    -- The host name whole, as uname(2) gives it to the shim and the engine (its first word was
    -- another node's name when it held a space).
    local node = usable_node_name(os.getenv("SLURMD_NODENAME")) or
      usable_node_name((read_text("/proc/sys/kernel/hostname") or ""):gsub("\n$", ""))
    if not (uid and boot and node) then return nil end
    -- Only a directory of the user's own that nobody else may write, as its writer demands.
    local dir = site.node_dir_prefix .. uid
    local a = lfs.symlinkattributes(dir)
    if not a or a.mode ~= "directory" or tostring(a.uid) ~= uid or
       a.permissions:sub(5, 5) == "w" or a.permissions:sub(8, 8) == "w" then
      return nil
    end
    -- And the file itself a regular file of the user's own (a FIFO would hold the module command).
    local file = dir .. "/" .. site.node_file_prefix .. node
    local fa = lfs.symlinkattributes(file)
    if not fa or fa.mode ~= "file" or tostring(fa.uid) ~= uid or
       fa.permissions:sub(5, 5) == "w" or fa.permissions:sub(8, 8) == "w" or
       fa.size > site.node_file_max then
      return nil
    end
    f = parse_node_file(read_text(file, site.node_file_max + 1) or "")
    if not f then return nil end
    -- Of this boot (shim/shared/node_file.h): modified since the boot moment and not later than
    -- now, as every reader demands, and its boot line, as the readers that read the boot id do.
    local now = os.time()
    local up = tonumber((read_text("/proc/uptime") or ""):match("^(%d+)"))
    if not up or fa.modification < now - up - 1 or fa.modification > now then return nil end
    if f.boot ~= boot then return nil end
  end
  if f.problem ~= "" or not f.gpus or f.gpus == "" then return nil end
  local gpus = gpu_list(f.gpus)
  local cuda = f.driver ~= "" and dotted(f.driver, 1000, 10) or nil
  if not gpus or #gpus == 0 or (f.driver ~= "" and not cuda) then return nil end
  local words = "compute capability " .. f.gpus
  if cuda then words = words .. " with a CUDA " .. f.driver .. " driver" end
  return {gpus = gpus, driver = cuda, words = words .. " (" .. f.source .. ")",
          overridden = f.source == "CUDNN_COMPAT_GPU_ARCH"}
end

local function listed(csv, n)
  return ("," .. csv .. ","):find("," .. n .. ",", 1, true) ~= nil
end

-- The warnings for the loaded modules whose every release the table says cannot run here.
local function gpu_findings(loaded, system_swap)
  local node = node_facts()
  if not node then return {} end
  local lines = site_tables.read(map_path() or "", site.decide_suffix, site.decide_format)
  if not lines then return {} end
  local known, first, rel, run, best = "", {}, {}, {}, {}
  for _, line in ipairs(lines) do
    local f = {}
    for field in (line .. "\t"):gmatch("([^\t]*)\t") do f[#f + 1] = field end
    if f[1] == "gpus" then known = f[2] or ""
    elseif f[1] == "gpu" and #f >= 3 then first[f[2]] = f[3]
    elseif f[1] == "rel" and #f >= 6 then rel[#rel + 1] = {entry = f[2], version = f[5], module = f[6]}
    elseif f[1] == "run" and #f >= 4 then run[f[2]] = {gpus = f[3], driver = f[4]}
    elseif f[1] == "fit" and f[3] == "-" and f[4] == "-" then best[f[2]] = f[5] or ""
    end
  end
  -- Overrides naming a GPU and a driver too old to know it contradict each other: the engine
  -- says so and keeps the loader's choice; so does a GPU the table has no first driver for.
  if node.overridden then
    for _, g in ipairs(node.gpus) do
      local cuda = first[tostring(g)]
      if not cuda or (cuda ~= "-" and node.driver < (tonumber(cuda) or math.huge)) then
        return {}
      end
    end
  end
  -- true, false and why, or nil: the table cannot say.
  local function runs(entry)
    local r = run[entry]
    if not r then return nil end
    for _, g in ipairs(node.gpus) do
      if not listed(known, g) then return nil end
      if r.gpus ~= "*" and not listed(r.gpus, g) then
        return false, "its release carries no code for compute capability " ..
          math.floor(g / 10) .. "." .. (g % 10)
      end
    end
    if r.driver ~= "-" and node.driver and node.driver < (tonumber(r.driver) or 0) then
      local d = tonumber(r.driver)
      return false, "it needs a driver for CUDA " .. math.floor(d / 1000) .. "." ..
        math.floor(d % 1000 / 10)
    end
    return true
  end
  local findings = {}
  for _, m in ipairs(loaded) do
    local version, why, fits, seen = nil, nil, false, false
    for _, r in ipairs(rel) do
      if r.module == m then
        local ok, reason = runs(r.entry)
        seen = true
        if ok == nil or ok then fits = true end
        version, why = r.version, why or reason
      end
    end
    if seen and not fits then
      local text = m .. " (cuDNN " .. version .. ") cannot run on this node, " .. node.words ..
        ": " .. why
      local other
      for e in (best[version:match("^(%d+)")] or ""):gmatch("%d+") do
        if runs(e) then
          for _, r in ipairs(rel) do
            if r.entry == e and r.module ~= "-" then other = other or r.module end
          end
        end
        if other then break end
      end
      if other then text = text .. "; " .. other .. " runs here: " .. system_swap .. m .. " " .. other end
      findings[#findings + 1] = text
    end
  end
  return findings
end

function cudnn_compat_load(t)
  loads_seen = true
  if t and t.modFullName then table.insert(command_now.loaded, t.modFullName) end
end

function cudnn_compat_unload(t)
  if t and t.modFullName then table.insert(command_now.unloaded, t.modFullName) end
end

-- One line on stderr as written. Not LmodWarning: Lmod before 8.7.33 turns any warning into exit
-- status 1 of `module load` (a `bash -e` job script stops there), and Lmod wraps its messages at
-- the terminal's width, which splits the advised `module swap OLD NEW` over two lines.
local function say(line)
  if LmodMsgRaw then LmodMsgRaw(line, "\n") else io.stderr:write(line, "\n") end
end

-- The findings ({severity, text}) out whole (say): Lmod's own error box would wrap them.
-- LmodError ends the command before Lmod prints any change: the environment stays as it was.
local function tell(findings)
  local errors = 0
  for _, f in ipairs(findings) do
    if f[1] == "error" then errors = errors + 1 end
    say("cudnn-compat: " .. (f[1] and f[1] .. ": " or "") .. f[2])
  end
  if errors > 0 then
    LmodError("cudnn-compat: the loaded cuDNN modules do not fit (above), and the site's map " ..
              "says on_module_mismatch = \"error\"; nothing was changed")
  end
end

function cudnn_compat_finalize()
  -- Once per command, also for a site hook that still calls this itself (older instructions).
  if not loads_seen then return end
  loads_seen = false
  local command = command_now
  command_now = {loaded = {}, unloaded = {}}
  local ok, err = pcall(function()
    local entries = loaded_needs()
    load_contract()
    local mt = require("FrameStk"):singleton():mt()
    local names = {}
    for _, m in ipairs(mt:list("fullName", "active")) do names[#names + 1] = m.fullName end
    for _, w in ipairs(gpu_findings(names, "module swap ")) do say("cudnn-compat: warning: " .. w) end
    if #entries == 0 then return end
    local argv, loaded, needs = {cudnn_compat_bin, "module-check", "--system", "lmod"}, {}, {}
    for _, m in ipairs(mt:list("fullName", "active")) do
      loaded[#loaded + 1] = m.fullName
      argv[#argv + 1] = "--loaded"
      -- The modulefile tells the application's toolchain (Compiler/GCC/12.3.0/...) to the advice.
      argv[#argv + 1] = m.fullName .. "=" .. (m.fn or "")
    end
    for _, entry in ipairs(entries) do
      needs[#needs + 1] = entry:match("=(.*)$")
      argv[#argv + 1] = "--need"
      argv[#argv + 1] = entry
    end
    -- A refusal's advice starts from before the command (module-check phrases it).
    for _, kind in ipairs({"loaded", "unloaded"}) do
      for _, m in ipairs(command[kind]) do
        argv[#argv + 1] = "--command-" .. kind
        argv[#argv + 1] = m
      end
    end
    local t = fits_table()
    if t and all_fit(t, loaded, needs) then return end
    -- The misfits' messages, written in advance, need no process either.
    local findings = t and table_findings(t, loaded, entries)
    if findings then return tell(findings) end
    local out, ran = run(argv)
    if not ran then
      local line = "cudnn-compat: cannot run " .. cudnn_compat_bin ..
        "; the loaded cuDNN modules were not checked (is cudnn-compat installed there?)"
      if strict() then LmodError(line) else say(line) end
      return
    end
    local told = {}
    for line in out:gmatch("[^\n]+") do
      local severity, text = line:match("^(%a+): (.*)")
      if severity ~= "error" and severity ~= "warning" then severity, text = nil, line end
      told[#told + 1] = {severity, text}
    end
    tell(told)
  end)
  if not ok then say("cudnn-compat: the module check failed (" .. tostring(err) .. ")") end
end

-- Our hooks beside a site's own, whichever registers first, so both run and the site's hooks need
-- no edit (docs/modules.md, "Lmod").
--
-- Lmod 8.7.35 and later keep a list of functions per hook name and document
-- hook.register(name, fn, "append") for adding one (Lmod's docs/source/170_hooks.rst; src/Hook.lua
-- since March 2024): the only interface used there.
local function lmod_appends()
  local v = type(LmodVersion) == "function" and tostring(LmodVersion()) or ""
  local major, minor, patch = v:match("^(%d+)%.(%d+)%.?(%d*)")
  local n = {tonumber(major) or 0, tonumber(minor) or 0, tonumber(patch) or 0}
  for i, want in ipairs({8, 7, 35}) do
    if n[i] ~= want then return n[i] > want end
  end
  return true
end

-- Before 8.7.35 (Debian 12's 8.6.19) register replaces and Lmod offers no way to reach the function
-- it replaces, so this uses two internals of src/Hook.lua, unchanged from Lmod 7 to 8.7.34:
-- the table validT (an upvalue of hook.apply) to find the function registered so far, and
-- hook.register itself, wrapped so that a site registering after us chains instead of replacing.
local function registered_before(name)
  for i = 1, 255 do
    local key, value = debug.getupvalue(hook.apply, i)
    if key == nil then return nil end
    if key == "validT" and type(value) == "table" then
      return type(value[name]) == "function" and value[name] or nil
    end
  end
end

-- Ours, then theirs, whose results go back to Lmod (some hooks return what Lmod uses).
local function chain(ours, theirs)
  if not (ours and theirs) or ours == theirs then return theirs or ours end
  return function(...)
    ours(...)
    return theirs(...)
  end
end

-- Once per Lmod run, even when a site both names this directory and dofile()s this file.
if not rawget(_G, "cudnn_compat_hooks") then
  cudnn_compat_hooks = {load = cudnn_compat_load, unload = cudnn_compat_unload,
                        finalize = cudnn_compat_finalize}
  if lmod_appends() then
    for name, fn in pairs(cudnn_compat_hooks) do hook.register(name, fn, "append") end
  else
    local register = hook.register
    for name, fn in pairs(cudnn_compat_hooks) do register(name, chain(fn, registered_before(name))) end
    hook.register = function(name, fn) return register(name, chain(cudnn_compat_hooks[name], fn)) end
  end
end
sandbox_registration{ cudnn_requires = cudnn_requires }
