#!/usr/bin/env bash
# The version rule (cmake/package_version.cmake): every build between releases has a version of
# its own that dpkg (and rpm) order as the history does, so apt upgrades an installed build to a
# newer one; a release is the project's version alone. The rule runs on throwaway repositories
# (commits, a day later, a release tag, the next version, no git); the .deb carries the version
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
# No git (a source tarball), or a tarball unpacked inside another work tree: the version alone.
mkdir -p "$t/tarball" "$repo/unpacked"
[[ $(rule "$t/tarball" 0.1.0) == 0.1.0 ]] || fail "without git: '$(rule "$t/tarball" 0.1.0)'"
[[ $(rule "$repo/unpacked" 0.2.0) == 0.2.0 ]] || fail "inside another work tree: '$(rule "$repo/unpacked" 0.2.0)'"

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
