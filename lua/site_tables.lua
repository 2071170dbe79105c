-- The Lmod hook's reader of the map's derived tables, under the contract's rule (docs/contract.md;
-- the same rule as shim/site_files.c, held to the same verdicts by tests/conformance). Loaded by
-- SitePackage.lua with the contract (site_contract.lua) as its argument:
--   local tables = loadfile(dir .. "/site_tables.lua")(contract)
--   local lines, verdict = tables.read(map, contract.fits_suffix, contract.fits_format)
local contract = ...
local lfs = require("lfs")
local M = {}

-- The reader's effective user id (luaposix has moved it between modules over the years).
local function euid()
  for _, name in ipairs({"posix.unistd", "posix"}) do
    local ok, m = pcall(require, name)
    if ok and type(m) == "table" and m.geteuid then return m.geteuid() end
  end
end

-- zlib's CRC-32 of a string. Lua 5.3's integer operators are written in a chunk of their own,
-- compiled only there: Lua 5.1's parser would reject the whole file. Without them (Lua 5.1, 5.2)
-- there is no CRC, and a copied map's tables are not believed here (the engine is asked instead).
local crc32 = _VERSION >= "Lua 5.3" and load([[
  local nibble = {[0] = 0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac, 0x76dc4190, 0x6b6b51f4,
    0x4db26158, 0x5005713c, 0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c, 0x9b64c2b0,
    0x86d3d2d4, 0xa00ae278, 0xbdbdf21c}
  return function(s)
    local c = 0xffffffff
    for i = 1, #s do
      c = c ~ s:byte(i)
      c = (c >> 4) ~ nibble[c & 15]
      c = (c >> 4) ~ nibble[c & 15]
    end
    return c ~ 0xffffffff
  end
]])() or nil

-- Whether others than root, the reader and the trusted group may write an object (lfs attributes).
local function untrusted(a, me, gid)
  local group_trusted = gid >= 0 and a.gid == gid
  if a.uid ~= 0 and a.uid ~= me and not group_trusted then return true end
  if a.permissions:sub(8, 8) == "w" then return true end
  return a.permissions:sub(5, 5) == "w" and not group_trusted
end

-- The stamp of the table's first line, when it is one of this format.
local function stamp(first, format)
  local f, ino, size, sec, nsec, crc, gid =
    first:match("^(.-)\t(%d+)\t(%d+)\t(%d+)\t(%d+)\t(%d+)\t([^\t]+)$")
  if f ~= format or not (gid == contract.no_group or gid:match("^%d+$")) then return nil end
  return {ino = tonumber(ino), size = tonumber(size), mtime = tonumber(sec), crc = tonumber(crc),
          gid = gid == contract.no_group and -1 or tonumber(gid)}
end

local function whole(path)
  local f = io.open(path, "rb")
  if not f then return nil end
  local text = f:read("*a")
  f:close()
  return text
end

-- The map's content as stamped (a copy keeps it: cp, rsync, images). Read only when its size is
-- the stamped one: a map that grew to gigabytes is never read at `module load`.
local function same_content(map, m, s)
  local text = crc32 and m.size == s.size and whole(map)
  return text and #text == s.size and crc32(text) == s.crc or false
end

-- The table of the map at path with this suffix and format: its lines between the stamp and the
-- end line when believed, else nil; and the verdict (site_files.c's words).
function M.read(map, suffix, format)
  local m = lfs.symlinkattributes(map)
  local dir = lfs.attributes(map:match("^(.*)/[^/]*$") or ".")
  if not (m and m.mode == "file" and dir) then return nil, "map-not-a-file" end
  local path = map .. suffix
  local t = lfs.symlinkattributes(path)
  if not t then return nil, "missing" end
  if t.mode ~= "file" then return nil, "not-a-file" end
  local text = whole(path)
  if not text then return nil, "missing" end
  local s = stamp(text:match("^([^\n]*)\n") or "", format)
  if not s then return nil, "other-format" end
  local me = euid() or -1
  if untrusted(m, me, s.gid) then return nil, "map-untrusted" end
  if untrusted(dir, me, s.gid) then return nil, "dir-untrusted" end
  if untrusted(t, me, s.gid) or (t.uid ~= m.uid and not (s.gid >= 0 and t.gid == s.gid)) then
    return nil, "table-untrusted"
  end
  -- The map's identity (in whole seconds: what lfs reads) and the table younger than it (git's
  -- racy-clean rule), else the map's content.
  local same_file = m.ino == s.ino and m.size == s.size and m.modification == s.mtime and
                    t.modification > m.modification
  if not same_file and not same_content(map, m, s) then return nil, "stale" end
  local tail = "\n" .. contract.end_line .. "\n"
  if text:sub(-#tail) ~= tail then return nil, "cut-short" end
  local lines = {}
  for line in text:sub(#text:match("^[^\n]*\n") + 1, -#tail):gmatch("[^\n]+") do
    lines[#lines + 1] = line
  end
  return lines, "believed"
end

return M
