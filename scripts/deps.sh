#!/usr/bin/env bash
# Installs, by Debian package name, everything the build, the tests and the demo need and that a
# fresh machine may lack. Idempotent: installs only what is missing, so it costs ~1 s when all is there.
set -euo pipefail

packages=(
  cmake g++ make pkg-config
  libtomlplusplus-dev   # the map's TOML parser (header-only)
  libcli11-dev          # the CLI's argument parser
  nlohmann-json3-dev    # --json output
  googletest libgtest-dev libgmock-dev
  libbenchmark-dev
  python3               # tests/ drive ctypes.CDLL as a loader client we did not write
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
((${#missing[@]} == 0)) && exit 0

echo "deps: installing ${missing[*]}" >&2
if [[ $(id -u) -ne 0 ]]; then sudo=sudo; else sudo=; fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
