#!/usr/bin/env bash
# The version rule (cmake/package_version.cmake): every build between releases has a version of
# its own that dpkg (and rpm) order as the history does, so apt upgrades an installed build to a
# newer one; a release is the project's version alone. The rule runs on throwaway repositories
# (commits, a day later, a release tag, the next version, tarballs of each, no git); the .deb carries the version
# its build worked out, which --version prints. Before the rule every build was 0.1.0.
. "$(dirname "$0")/common.sh"
need_tools git dpkg
rule() { cmake -DSOURCE_DIR="$1" -DBASE_VERSION="$2" -P "$SOURCE/cmake/package_version.cmake" 2>&1; }
# newer A B: dpkg, and rpm where it is here, order A after B.
newer() {
  dpkg --compare-versions "$1" gt "$2" || fail "dpkg does not order $1 after $2"
  if command -v rpm >/dev/null; then
    [[ $(rpm --eval "%{lua: print(rpm.vercmp('$1', '$2'))}") == 1 ]] ||
      fail "rpm does not order $1 after $2"
  fi
}
repo=$t/repo
commit() {  # commit DATE: one more commit, made on DATE
  echo "$1" >>"$repo/file"
  git -C "$repo" add file
  GIT_AUTHOR_DATE="$1" GIT_COMMITTER_DATE="$1" git -C "$repo" -c user.name=t -c user.email=t@example.org \
    commit -qm "$1"
}
git init -q "$repo"
# The files that let `git archive` tell a tarball its commit, as in this project.
cp "$SOURCE/.gitattributes" "$SOURCE/.git_archival.txt" "$repo/"
git -C "$repo" add .gitattributes .git_archival.txt
commit 2026-12-01T23:30:00+00:00
v1=$(rule "$repo" 0.1.0)
[[ $v1 =~ ^0\.1\.0~git20261201\.1\.g[0-9a-f]{7}$ ]] || fail "first commit: '$v1'"
commit 2026-12-01T23:40:00+00:00
v2=$(rule "$repo" 0.1.0)
[[ $v2 == 0.1.0~git20261201.2.g* ]] || fail "second commit: '$v2'"
newer "$v2" "$v1"
# The date is UTC's (23:50 in UTC-05:00 is the next day there).
commit 2026-12-01T23:50:00-05:00
v3=$(rule "$repo" 0.1.0)
[[ $v3 == 0.1.0~git20261202.3.g* ]] || fail "a commit the next day (UTC): '$v3'"
newer "$v3" "$v2"
# Every build on the way to 0.1.0 comes before 0.1.0 itself; the release is 0.1.0 alone.
newer 0.1.0 "$v3"
# A tarball (git archive) of that commit: its date and hash from .git_archival.txt, the count
# unknown (0: before that day's builds from git), and before the release.
archive() { mkdir -p "$2" && git -C "$repo" archive "$1" | tar -xm -C "$2"; }
archive HEAD "$t/before"
before=$(rule "$t/before" 0.1.0)
[[ $before == 0.1.0~git20261202.0.g$(git -C "$repo" rev-parse --short HEAD) ]] ||
  fail "a tarball on the way to 0.1.0: '$before'"
newer "$before" "$v1"
newer 0.1.0 "$before"
git -C "$repo" tag v0.1.0
release=$(rule "$repo" 0.1.0)
[[ $release == 0.1.0 ]] || fail "at the tag v0.1.0: '$release'"
# After the release, before the project's version moves on: after 0.1.0.
commit 2026-12-03T08:00:00+00:00
after=$(rule "$repo" 0.1.0)
[[ $after == 0.1.0+git20261203.1.g* ]] || fail "past the tag: '$after'"
newer "$after" "$release"
# The next version's builds come after all of 0.1.0's.
next=$(rule "$repo" 0.2.0)
[[ $next == 0.2.0~git20261203.4.g* ]] || fail "on the way to 0.2.0: '$next'"
newer "$next" "$after"
# Tarballs (git archive) as their commits' builds from git: the release's is the release, one past
# it the same as from git; one past it on the way to 0.2.0 before that version's builds from git.
archive v0.1.0 "$t/release"
[[ $(rule "$t/release" 0.1.0) == 0.1.0 ]] || fail "the release's tarball: '$(rule "$t/release" 0.1.0)'"
# Tags that are no release (v0.1.0-notes, an alias v0.1) nearer than the release's, and an
# archive made with another core.abbrev: the same version as from git. The release's own tarball
# is the release beside its alias.
git -C "$repo" tag v0.1 v0.1.0
archive v0.1.0 "$t/aliased"
[[ $(rule "$t/aliased" 0.1.0) == 0.1.0 ]] || fail "the release's tarball beside v0.1: '$(rule "$t/aliased" 0.1.0)'"
git -C "$repo" tag v0.1.0-notes
mkdir -p "$t/after" && git -C "$repo" -c core.abbrev=12 archive HEAD | tar -xm -C "$t/after"
[[ $(rule "$t/after" 0.1.0) == "$after" ]] || fail "a tarball past the tag: '$(rule "$t/after" 0.1.0)'"
[[ $(rule "$t/after" 0.2.0) == 0.2.0~git20261203.0.g* ]] || fail "on the way to 0.2.0: '$(rule "$t/after" 0.2.0)'"
newer "$next" "$(rule "$t/after" 0.2.0)"
# A tarball unpacked inside another work tree is its own commit's, not that tree's HEAD.
archive v0.1.0 "$repo/unpacked"
[[ $(rule "$repo/unpacked" 0.1.0) == 0.1.0 ]] || fail "inside another work tree: '$(rule "$repo/unpacked" 0.1.0)'"
# A tree that cannot tell its commit (no git, the archival file not filled in): before every build
# of the version, so that any build replaces it (it claimed 0.1.0, and a later build from git was a
# downgrade).
mkdir -p "$t/copy" && cp "$SOURCE/.git_archival.txt" "$t/copy/"
[[ $(rule "$t/copy" 0.1.0) == 0.1.0~dev ]] || fail "a copy without git: '$(rule "$t/copy" 0.1.0)'"
mkdir -p "$t/bare"
[[ $(rule "$t/bare" 0.1.0) == 0.1.0~dev ]] || fail "without the archival file: '$(rule "$t/bare" 0.1.0)'"
newer "$v1" 0.1.0~dev

# This build's version, as the build worked it out, in --version and in the .deb.
file=$BUILD_DIR/package/version.cmake
[[ -f $file ]] || fail "the build wrote no $file"
version=$(sed -n 's/^set(CUDNN_COMPAT_PACKAGE_VERSION "\(.*\)")$/\1/p' "$file")
base=$(sed -n 's/^project(cudnn-compat VERSION \([0-9.]*\).*/\1/p' "$SOURCE/CMakeLists.txt")
[[ -n $version && -n $base ]] || fail "no version in $file, or none in CMakeLists.txt"
if git -C "$SOURCE" rev-parse --git-dir >/dev/null 2>&1; then
  [[ $version =~ ^$base([~+]git[0-9]{8}\.[0-9]+\.g[0-9a-f]+)?$ ]] || fail "this checkout's build is '$version'"
fi
expect_rc 0 "$BUILD_DIR/bin/cudnn-compat" --version
has "cudnn-compat $version"
need_tools --why "for the .deb" cpack dpkg-deb
deb_built
[[ $(dpkg-deb -f "$deb" Version) == "$version" ]] || fail "the .deb is $(dpkg-deb -f "$deb" Version), not $version"
