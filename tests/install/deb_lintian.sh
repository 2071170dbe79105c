#!/usr/bin/env bash
# Issue 24: lintian finds no error in the .deb. The .deb lays the tree out as Debian's FHS asks
# (prefix /usr, the programs' private files in /usr/lib/cudnn-compat, nothing in /opt or /etc, no
# conffile: the site's map is the admin's), carries what Debian's policy asks (copyright with the
# licence, changelog.gz from CHANGELOG.md, compressed manual pages), overrides only the static
# engine, with its reason; and its contents, unpacked into a throwaway root, run from there.
. "$(dirname "$0")/common.sh"
need_tools --why "scripts/deps.sh installs dpkg-dev and lintian" cpack dpkg-deb dpkg-shlibdeps lintian
# The package ships the engine linked statically; a sanitizer build links it dynamically (ASan
# needs the loader) and is no package anyone ships.
engine=$BUILD_DIR/lib/cudnn-compat/cudnn-compat-select
[[ -x $engine ]] || fail "no engine at $engine"
# (readelf's output taken whole: a negated `readelf | grep -q` under pipefail passes when grep's
# early exit cuts readelf off with SIGPIPE.)
[[ $(readelf -l "$engine") != *'program interpreter'* ]] ||
  skip "the engine is linked dynamically here (a sanitizer build): not the package Debian gets"
deb_built

# lintian as Debian's archive runs it; what it shows is kept in the log of this test. An error
# fails the test, and so does a warning (none today: fix it, or override it in
# package/lintian-overrides with the reason).
rc=0
report=$(lintian --info --display-level ">=warning" --fail-on error,warning "$deb" 2>&1) || rc=$?
echo "$report"
errors=$(grep -E '^E: ' <<<"$report" || true)
[[ -z $errors ]] || fail "lintian reports errors:"$'\n'"$errors"
warnings=$(grep -E '^W: ' <<<"$report" || true)
[[ -z $warnings ]] || fail "lintian reports warnings:"$'\n'"$warnings"
((rc == 0)) || fail "lintian exited $rc (2: an error or a warning; 1: it failed itself): $report"
# Again with the overrides shown (which makes lintian exit 2 for an overridden error).
report=$(lintian --display-level ">=warning" --show-overrides "$deb" 2>&1) || true
echo "$report"
# The overrides (package/lintian-overrides, each with its reason) are the static engine's and the
# shim's that links no libc; each is used (an override that matches nothing is a tag of its own).
# The maintainer scripts are the package's own (package/postinst.in, postrm.in), which call no
# ldconfig: CPack's, and their overrides, are gone.
out=$report
has "O: cudnn-compat: statically-linked-binary [usr/lib/cudnn-compat/cudnn-compat-select]"
has "O: cudnn-compat: shared-library-lacks-prerequisites [usr/lib/cudnn-compat/libcudnn-compat.so]"
lacks "mismatched-override"
lacks "unused-override"
lacks "maintscript-calls-ldconfig"
for script in postinst postrm; do
  out=$(dpkg-deb -I "$deb" $script)
  has "$script of the cudnn-compat .deb"
  out=$(grep -v '^[[:space:]]*#' <<<"$out")  # the code, not the comments
  lacks "ldconfig"
done
[[ $(grep -c '^O: ' <<<"$report") == $(grep -c '^cudnn-compat: ' "$SOURCE/package/lintian-overrides") ]] ||
  fail "not every override is used:"$'\n'"$report"

# The layout: everything under /usr, Debian's files where Debian looks.
out=$(dpkg-deb -c "$deb")
for f in usr/bin/cudnn-compat usr/lib/cudnn-compat/libcudnn-compat.so \
  usr/lib/cudnn-compat/cudnn-compat-select usr/lib/cudnn-compat/cudnn-compat-probe \
  usr/share/cudnn-compat/lmod/SitePackage.lua usr/share/cudnn-compat/envmodules/siteconfig.tcl \
  usr/share/cudnn-compat/map.toml.example usr/share/man/man1/cudnn-compat.1.gz \
  usr/share/man/man5/cudnn-compat-map.5.gz usr/share/bash-completion/completions/cudnn-compat \
  usr/share/zsh/vendor-completions/_cudnn-compat \
  usr/share/doc/cudnn-compat/copyright usr/share/doc/cudnn-compat/changelog.gz \
  usr/share/doc/cudnn-compat/README.md usr/share/lintian/overrides/cudnn-compat; do
  has " ./$f"
done
outside=$(awk '{print $6}' <<<"$out" | grep -vE '^\./(usr/.*)?$' || true)
[[ -z $outside ]] || fail "the .deb installs outside /usr: $outside"
lacks "/usr/etc"
lacks "site-functions"  # Debian's zsh reads packages' completions from vendor-completions
pages=$(awk '{print $6}' <<<"$out" | grep -E '/man/man[0-9]/[^/]*\.[0-9]$' || true)
[[ -z $pages ]] || fail "manual pages not compressed: $pages"
conffiles=$(dpkg-deb -I "$deb" conffiles 2>/dev/null || true)
[[ -z $conffiles ]] || fail "the .deb marks conffiles (the map is the site's): $conffiles"
out=$(dpkg-deb -f "$deb" Maintainer)
lacks "@localhost"

# The copyright file names the licence of every library linked statically into the programs (a
# program that needs no libstdc++.so, libsqlite3.so, or no libc.so: a static engine), with the
# text from that library's Debian package and the package's version, in a paragraph for each
# program that carries it: no Files pattern names a file of the build machine, not in the package
# (usr/include/CLI/*, libc.a).
copyright=$(dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/share/doc/cudnn-compat/copyright)
out=$copyright
contents=$(dpkg-deb --fsys-tarfile "$deb" | tar -t)
while read -r pattern; do
  [[ $pattern == '*' ]] || grep -qxF -- "./$pattern" <<<"$contents" ||
    fail "the copyright's Files: $pattern is no file of the package"
done < <(sed -n 's/^Files: //p' <<<"$copyright")
has "Files: usr/bin/cudnn-compat"
has "Files: usr/lib/cudnn-compat/cudnn-compat-select"
has "License: MIT"
has "BSD-3-clause;"  # CLI11
has "CLI11 (header-only)"
has "toml++ (header-only)"
has "nlohmann/json (header-only)"
has "License: Expat"
needed() { readelf -d "$BUILD_DIR/$1" | grep NEEDED || true; }
if ! grep -q 'libstdc++' <<<"$(needed bin/cudnn-compat)"; then
  has "libstdc++ (the GNU C++ library)"
  has "License: GPL-3+ with GCC-exception-3.1 exception"
  has " GCC RUNTIME LIBRARY EXCEPTION"
fi
if ! grep -q 'libsqlite3' <<<"$(needed bin/cudnn-compat)"; then
  has "SQLite: public-domain;"
  has "License: public-domain"
fi
# The engine is static here (the test skipped otherwise): the GNU C Library, and its source.
has "The GNU C Library: LGPL-2.1+;"
has "License: LGPL-2.1+"
has "/usr/share/common-licenses/LGPL-2.1"
has "(source package glibc $(dpkg-query -W -f '${source:Version}' libc6-dev))"
has "apt-get source"
# Each licence named (alone, or in a paragraph's "A and B") has its text (a License line of that
# name alone, followed by indented lines) somewhere.
missing=$(awk '/^License: / { v = substr($0, 10); k = split(v, parts, / and /); for (i = 1; i <= k; i++) names[parts[i]] = 1
    if ((getline next_line) > 0 && next_line ~ /^ / && k == 1) text[v] = 1 }
  END { for (n in names) if (!(n in text)) print n }' <<<"$copyright")
[[ -z $missing ]] || fail "licences without their text: $missing"

# The changelog is CHANGELOG.md's, as a Debian changelog of this version.
out=$(dpkg-deb --fsys-tarfile "$deb" | tar -xO ./usr/share/doc/cudnn-compat/changelog.gz | gzip -dc)
has "cudnn-compat ($(dpkg-deb -f "$deb" Version)) unstable; urgency=medium"
# Each "- item" of CHANGELOG.md is an item there.
[[ $(grep -c '^    - ' <<<"$out") == $(grep -c '^- ' "$SOURCE/CHANGELOG.md") ]] ||
  fail "the changelog lacks items of CHANGELOG.md:"$'\n'"$out"
printf '%s\n' "$out" >"$t/changelog"
expect_rc 0 dpkg-parsechangelog -l "$t/changelog"
has "Version: $(dpkg-deb -f "$deb" Version)"
# Its own warnings, not the word in an item ("its misfit warnings").
lacks "dpkg-parsechangelog: warning"

# Hardening, as hardening-check (devscripts) judges it, read with readelf: every program and
# library shipped has a read-only GOT after relocation (RELRO); those the loader links bind at
# start (BIND_NOW) and the programs among them are position-independent (PIE); cudnn-compat calls
# libc's fortified functions (_FORTIFY_SOURCE), the probe has stack canaries. The engine is static
# (no loader: RELRO only), the shim has no libc (nothing to fortify).
hroot=$t/hardening
dpkg-deb -x "$deb" "$hroot"
for f in usr/bin/cudnn-compat usr/lib/cudnn-compat/cudnn-compat-probe \
  usr/lib/cudnn-compat/cudnn-compat-select usr/lib/cudnn-compat/libcudnn-compat.so \
  usr/lib/cudnn-compat/spank-cudnn-compat.so; do
  [[ -f $hroot/$f ]] || continue
  out=$(readelf -lW "$hroot/$f")
  has "GNU_RELRO"
  [[ $f == */cudnn-compat-select ]] && continue
  out=$(readelf -dW "$hroot/$f")
  grep -qE 'BIND_NOW|FLAGS_1.*NOW' <<<"$out" || fail "$f does not bind at start (BIND_NOW):"$'\n'"$out"
  [[ $f == *.so ]] && continue
  out=$(readelf -hW "$hroot/$f")
  has "DYN (Position-Independent Executable file)"
done
# The project's own snprintf calls: __memcpy_chk and __memset_chk come with the static SQLite
# of Debian's build even without the project's flags. Stack canaries (-fstack-protector-strong):
# the probe, which links nothing that brings its own (cudnn-compat's SQLite does).
out=$(readelf --dyn-syms -W "$hroot/usr/bin/cudnn-compat")
has "__snprintf_chk@"
out=$(readelf --dyn-syms -W "$hroot/usr/lib/cudnn-compat/cudnn-compat-probe")
has "__stack_chk_fail@"
if command -v hardening-check >/dev/null; then
  hardening-check "$hroot/usr/bin/cudnn-compat" "$hroot/usr/lib/cudnn-compat/cudnn-compat-probe" || true
fi

# Unpacked into a throwaway root, the tool runs from there: its version, its manual page, and the
# example map (its cuDNN paths turned into the FAKE releases) is valid.
root=$t/root
dpkg-deb -x "$deb" "$root"
cc=$root/usr/bin/cudnn-compat
expect_rc 0 "$cc" --version
has "cudnn-compat $(dpkg-deb -f "$deb" Version)"
if command -v man >/dev/null; then
  out=$(man -l "$root/usr/share/man/man5/cudnn-compat-map.5.gz" 2>&1)
  has "cudnn-compat-map"
fi
sed "s|/opt/cudnn|$FAKES|" "$root/usr/share/cudnn-compat/map.toml.example" >"$t/example.toml"
expect_rc 0 "$cc" map validate "$t/example.toml"
has "$t/example.toml: valid"
# With no map anywhere (none in this throwaway root), the tool names the example it ships.
expect_rc 1 "$cc" map validate
example=$(sed -n 's/.*write one from \([^ ]*\).*/\1/p' <<<"$out")
[[ $example == "$root/usr/share/cudnn-compat/map.toml.example" ]] ||
  fail "the example it names is not the .deb's: '$example' in: $out"
expect_rc 0 "$cc" shim-path
has "$root/usr/lib/cudnn-compat/libcudnn-compat.so"
