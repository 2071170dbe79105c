# Sourced by every tests/conformance/*.sh scenario. CTest passes SHIM, CUDNN_COMPAT, FAKES, CC and
# SHARE (build/share/cudnn-compat: the hooks beside their generated contract).
source "$(dirname "${BASH_SOURCE[0]}")/../scenario.sh"
: "${SHIM:?}" "${CUDNN_COMPAT:?}" "${FAKES:?}" "${CC:?}" "${SHARE:?}"
command -v strace >/dev/null || skip "strace is not installed (scripts/deps.sh installs it)"
command -v lua5.3 >/dev/null || skip "no lua5.3 (Debian's lmod brings it)"
command -v tclsh8.6 >/dev/null || skip "no tclsh8.6"
command -v python3 >/dev/null || skip "no python3"
lua5.3 -e 'require("lfs")' 2>/dev/null || skip "no Lua lfs (Debian's lmod brings lua-filesystem)"

# The map a site would write for two FAKE releases.
fake_map() {
  printf 'schema = 1\n[policy]\nrule = "nvidia"\n%s' "${POLICY:-}"
  local v
  for v in 5.0.5 5.1.10; do
    printf '[[cudnn]]\nversion = "%s"\nlib = "%s"\nmodule = "cudnn/%s"\n' "$v" "$FAKES/$v/lib64" "$v"
  done
}

# A client that loads libcudnn.so.5 by bare name, as a framework would.
"$CC" -o "$t/load5" -x c - -ldl <<'C'
#include <dlfcn.h>
int main(void) { return dlopen("libcudnn.so.5", RTLD_NOW) ? 0 : 1; }
C

cat >"$t/lua_reader.lua" <<'LUA'
local here, map, kind = ...
local site = dofile(here .. "/site_contract.lua")
local tables = loadfile(here .. "/site_tables.lua")(site)
local _, verdict = tables.read(map, site[kind .. "_suffix"], site[kind .. "_format"])
print(verdict)
LUA
cat >"$t/tcl_reader.tcl" <<'TCL'
lassign $argv here map kind
source [file join $here site_contract.tcl]
source [file join $here site_tables.tcl]
puts [cudnn_compat_read_table $map $cudnn_compat_site(${kind}_suffix)\
   $cudnn_compat_site(${kind}_format) lines]
TCL

# engine MAP KIND: the engine's verdict (doctor, the shim's own C reader) on the table.
# What doctor printed stays in $t/doctor.*, and is shown when it is not the JSON expected (CI saw
# one such run, unexplained, in a copied-map fixture that passes here every time).
engine() {
  local rc=0
  "$CUDNN_COMPAT" --json doctor --map "$1" >"$t/doctor.out" 2>"$t/doctor.err" || rc=$?
  python3 -c '
import json, sys
for t in json.load(sys.stdin)["tables"]:
    if t["file"].endswith("." + sys.argv[1]): print(t["verdict"])' "$2" <"$t/doctor.out" || {
    echo "doctor --json --map $1 exited $rc; stdout: $(head -c 3000 "$t/doctor.out");" \
      "stderr: $(head -c 3000 "$t/doctor.err")" >&2
    return 1
  }
}
lua_hook() { lua5.3 - "$SHARE/lmod" "$1" "$2" <"$t/lua_reader.lua"; }
tcl_hook() { tclsh8.6 "$t/tcl_reader.tcl" "$SHARE/envmodules" "$1" "$2"; }
# shim MAP: "believed" when the shim settled a fitting load from the decision table (the client's
# own execve only, no engine), "not" when it asked the engine. Bounded: a FIFO must not hold it.
shim() {
  timeout -k 2 20 strace -f -qq -e trace=execve -o "$t/trace" env CUDNN_COMPAT_MAP="$1" \
    CUDNN_COMPAT_REQUIRE=5.1 LD_LIBRARY_PATH="$FAKES/5.1.10/lib64" LD_AUDIT="$SHIM" "$t/load5" ||
    fail "the client failed with $1"
  [[ $(grep -c 'execve(' "$t/trace") == 2 ]] && echo believed || echo not
}

# verdict MAP EXPECTED: every reader says EXPECTED of every table the readers share (the engine and
# both hooks: fits and misfits; the engine: the cache and decision table too), and the shim
# believes the decision table exactly when EXPECTED is "believed".
verdict() {
  local map=$1 want=$2 kind got
  for kind in fits misfits; do
    for reader in engine lua_hook tcl_hook; do
      got=$($reader "$map" "$kind")
      [[ $got == "$want" ]] || fail "$fixture: $reader says '$got' of the $kind table, expected '$want'"
    done
  done
  for kind in cache decide; do
    got=$(engine "$map" "$kind")
    [[ $got == "$want" ]] || fail "$fixture: the engine says '$got' of the $kind table, expected '$want'"
  done
  got=$(shim "$map")
  [[ $got == "$([[ $want == believed ]] && echo believed || echo not)" ]] ||
    fail "$fixture: the shim's decision table was $got believed, expected '$want'"
  echo "$fixture: $want (engine, shim, Lua, Tcl)"
}

# fresh DIR: a new directory with a validated map in it.
fresh() {
  rm -rf "$1" && mkdir -p "$1" && chmod 755 "$1"
  fake_map >"$1/map.toml"
  "$CUDNN_COMPAT" map validate "$1/map.toml" >/dev/null
}
tables() { echo "$1"/map.toml.{cache,fits,misfits,decide}; }
