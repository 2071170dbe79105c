#!/usr/bin/env bash
# The cache and the fits and misfits tables written beside a map take the map's owner, group and
# mode: a map kept private (0600, or 0640 for a group) does not leak through 0644 files beside it.
. "$(dirname "$0")/common.sh"
[[ $(id -u) == 0 ]] || skip "needs root (gives the map a group of its own)"
cc=$BUILD_DIR/bin/cudnn-compat
site_map >"$t/map.toml"
for mode in 600 640; do
  chmod "$mode" "$t/map.toml"
  chgrp nogroup "$t/map.toml"
  rm -f "$t/map.toml.cache" "$t/map.toml.fits" "$t/map.toml.misfits"
  expect_rc 0 "$cc" map validate "$t/map.toml"
  has "tables written"
  for f in cache fits misfits; do
    out=$(stat -c '%a %U %G' "$t/map.toml.$f")
    [[ $out == "$mode root nogroup" ]] || fail "map.toml.$f is '$out', expected '$mode root nogroup'"
  done
done
# scan writes them too.
expect_rc 0 "$cc" scan --modules none --search "$FAKES/5.1.10/lib64" --merge -o "$t/map.toml"
out=$(stat -c '%a %G' "$t"/map.toml.{cache,fits,misfits,bak} | sort -u)
[[ $out == "640 nogroup" ]] || fail "after scan: $out"
