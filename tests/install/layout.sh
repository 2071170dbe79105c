#!/usr/bin/env bash
# Issue 24 item 1: one install layout. The installed tree, moved and with no map, tells the user to
# copy an example map that is there; and a sysconfdir outside the prefix
# (-DCMAKE_INSTALL_SYSCONFDIR=/etc) is where the shim, the Lmod hook and the Environment Modules
# hook all look for the installed map (each takes it from the contract CMake generates).
. "$(dirname "$0")/common.sh"
install_to "$t/stage" && mv "$t/stage" "$t/opt"
expect_rc 1 "$t/opt/bin/cudnn-compat" map validate
example=$(sed -n 's/.*write one from \([^ ]*\).*/\1/p' <<<"$out")
[[ -n $example && -f $example ]] || fail "the example map it names is not there: '$example' in: $out"
[[ $example == "$t/opt/"* ]] || fail "the example map is not the moved tree's: $example"

# Configured with an absolute sysconfdir: every reader's installed map is that one.
cmake -S "$SOURCE" -B "$t/build" -DCMAKE_INSTALL_SYSCONFDIR="$t/sysconf" -DBUILD_TESTING=OFF \
  >"$t/configure.log" 2>&1 ||
  fail "configure failed: $(tail -5 "$t/configure.log")"
want=$t/sysconf/cudnn-compat/map.toml
out=$(cat "$t/build/generated/site_contract.h")
has "#define SITE_MAP_FROM_PKGLIBDIR \"$want\""
out=$(cat "$t/build/share/cudnn-compat/lmod/site_contract.lua")
has "map_from_here = \"$want\""
out=$(cat "$t/build/share/cudnn-compat/envmodules/site_contract.tcl")
has "map_from_here {$want}"
# The default: relative to each reader's own directory, so a moved tree keeps its map.
out=$(cat "$BUILD_DIR/generated/site_contract.h")
has '#define SITE_MAP_FROM_PKGLIBDIR "../../etc/cudnn-compat/map.toml"'
out=$(cat "$BUILD_DIR/share/cudnn-compat/lmod/site_contract.lua")
has 'map_from_here = "../../../etc/cudnn-compat/map.toml"'
