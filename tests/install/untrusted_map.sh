#!/usr/bin/env bash
# A map anyone but its owner can change, or owned by neither root nor the user, is refused with one
# line - by jobs (the shim loads as usual), by both hooks and by `map validate` (an error) - as sudo
# and ssh refuse such files.
. "$(dirname "$0")/common.sh"
need_module_systems
[[ $(id -u) == 0 ]] || skip "needs root (chowns the map to another user)"
p=$BUILD_DIR m=$t/site/map.toml
mkdir "$t/site"
site_map >"$m"
export CUDNN_COMPAT_MAP=$m
for f in lua tcl; do "$p/bin/cudnn-compat" modulefiles --format $f -o "$t/modules/$f" >/dev/null; done
app_modules "$t/modules"
"$p/bin/cudnn-compat" map validate >/dev/null  # the cache and the fits table, while it is trusted
tf2016_client
job() { env CUDNN_COMPAT_REQUIRE=5.1 LD_LIBRARY_PATH="$FAKES/5.0.5/lib64" LD_AUDIT="$p/lib/cudnn-compat/libcudnn-compat.so" "$@"; }
expect_rc 0 job "$t/apps/tf2016"
has "cuDNN 5110 from $FAKES/5.1.10/lib64"

# refused WHY: every reader refuses the map, in one line each that says why.
refused() {
  expect_rc 1 job "$t/apps/tf2016"
  has "Loaded runtime CuDNN library: 5005"
  count "refused: $1" 1
  # A job that requires nothing still hears once that the site's map is not used.
  expect_rc 1 env LD_LIBRARY_PATH="$FAKES/5.0.5/lib64" LD_AUDIT="$p/lib/cudnn-compat/libcudnn-compat.so" "$t/apps/tf2016"
  count "refused: $1" 1
  expect_rc 1 "$p/bin/cudnn-compat" map validate
  has "$m: error: refused: $1"
  for system in lmod tcl; do
    $system "$p" load tensorflow/1.0 cudnn/5.0 || true
    has "refused: $1"
    lacks "$misfit"
    count "cudnn-compat" 1
    $system "$p" purge
    # A pair the fits table calls fitting: the table beside a refused map is not believed either.
    $system "$p" load tensorflow/1.0 cudnn/5.1
    has "refused: $1"
    count "cudnn-compat" 1
    $system "$p" purge
  done
}
chmod 0664 "$m"
refused "it is writable by others than its owner (mode 0664: group root"
chmod 0644 "$m"
chmod 0777 "$t/site"
refused "its directory $t/site is writable by others than its owner (mode 0777: everyone)"
chmod 0755 "$t/site"
chown 4321 "$m"
refused "it is owned by uid 4321, neither root nor you"
chown 0 "$m"
expect_rc 0 job "$t/apps/tf2016"
