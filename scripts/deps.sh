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
  python3-venv          # tests/python: real virtual environments (python3 -m venv)
  lmod                  # the real Lmod the module tests run (8.6 on Debian 12)
  clang                 # libFuzzer, for the fuzz target of explain
  tcl8.6 less procps    # what Environment Modules' modulecmd.tcl needs to run
  man-db                # tests/cli/man_page.sh renders the generated man pages with man -l
  strace                # tests/shim/hostile_big_host.sh: which clones the shim makes
  dpkg-dev file rpm     # cpack's .deb (dpkg-shlibdeps) and .rpm (rpmbuild), tests/install
  lintian               # tests/install/deb_lintian.sh: the .deb has no lintian error
  slurm-wlm munge       # the real Slurm 22.05 and munged the tests/slurm cluster runs
  libslurm-dev          # slurm/spank.h, for the SPANK plugin
  rsyslog               # tests/shim/log_syslog.sh, usage_syslog.sh: the shim's lines sent to syslog
  libsqlite3-dev        # cudnn-compat usage: the records' database (linked statically, libsqlite3.a)
  sqlite3               # tests/cli/usage_*.sh look into that database as an admin would
  bubblewrap            # tests/shim/container.sh: a container of its own, as Apptainer makes one
  locales libc-l10n     # tests/cli/explain_translated_loader.sh: glibc's loader reasons in other locales
)

# Environment Modules conflicts with lmod as a Debian package, so it is unpacked (not installed)
# into a private prefix inside the checkout, where the tests look for it.
envmodules_prefix="$(cd "$(dirname "$0")/.." && pwd)/.deps/environment-modules"
envmodules() {
  [[ -x $envmodules_prefix/usr/lib/x86_64-linux-gnu/modulecmd.tcl ]] && return 0
  echo "deps: unpacking environment-modules into $envmodules_prefix" >&2
  local tmp; tmp=$(mktemp -d)
  chmod 755 "$tmp"  # apt downloads as its own user
  (cd "$tmp" && apt-get download -qq environment-modules >/dev/null)
  mkdir -p "$envmodules_prefix"
  dpkg -x "$tmp"/environment-modules_*.deb "$envmodules_prefix"
  rm -rf "$tmp"
}

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]} > 0)); then
  echo "deps: installing ${missing[*]}" >&2
  if [[ $(id -u) -ne 0 ]]; then sudo=sudo; else sudo=; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
envmodules
