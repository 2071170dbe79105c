# Issue 21 re-test, item 6: a program run through the loader (`/lib64/ld-linux-x86-64.so.2 PROG`,
# as some launchers and wrappers do) is recorded as exe=PROG, not as the loader, whose name
# /proc/self/exe then gives; by either front end, and from a relative name as well.
source "$(dirname "$0")/common.sh"
tf2016_client
ldso=$(readelf -l "$t/tf2016" | sed -n 's/.*interpreter: \(.*\)]/\1/p')
[[ -x $ldso ]] || skip "no loader at '$ldso'"
mkdir "$t/spool"
fake_map 5.0.5 5.1.10 >"$t/map.toml"
printf '[usage]\nmode = "record"\nto = "%s"\n' "$t/spool" >>"$t/map.toml"
for mode in AUDIT PRELOAD; do
  LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 CUDNN_COMPAT_REQUIRE=5.1 env "LD_$mode=$SHIM" \
    "$ldso" "$t/tf2016" >/dev/null
  (cd "$t" && LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 CUDNN_COMPAT_REQUIRE=5.1 env "LD_$mode=$SHIM" \
    "$ldso" ./tf2016 >/dev/null)
done
# And run as itself, as before: /proc/self/exe.
LD_LIBRARY_PATH=$FAKES/5.0.5/lib64 CUDNN_COMPAT_REQUIRE=5.1 LD_AUDIT=$SHIM "$t/tf2016" >/dev/null
out=$(cat "$t"/spool/*.usage)
count "U1 t=" 5
count " exe=$t/tf2016 " 5
lacks "exe=$ldso"
lacks "exe=/lib"
