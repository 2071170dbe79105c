# The version of a build, the one rule for `cudnn-compat --version`, the manual pages, the .deb
# and the .rpm (docs/admin-guide.md, "Versions"). Run at every build (CMakeLists.txt), and by
# tests/install/deb_version.sh on throwaway repositories:
#
#   cmake -DSOURCE_DIR=DIR -DBASE_VERSION=X.Y.Z [-DOVERRIDE=V] [-DOUT_HEADER=FILE]
#         [-DOUT_CMAKE=FILE] -P package_version.cmake
#
# BASE_VERSION is the project's version (project(VERSION) in CMakeLists.txt, the one place it is
# written): the release the work is on the way to, or the last one made. Where SOURCE_DIR is the
# top of a git work tree:
#   HEAD is the release's tag v<BASE>      <BASE>                     0.1.0
#   HEAD is past that tag                  <BASE>+git<date>.<n>.g<h>  0.1.0+git20270105.4.g1a2b3c4
#   no tag v<BASE> behind HEAD             <BASE>~git<date>.<n>.g<h>  0.1.0~git20261202.361.g964bee8
# <date> is HEAD's commit date (UTC, YYYYMMDD), <n> the number of commits since the tag (in all of
# HEAD's history when there is none), <h> HEAD's abbreviated hash. dpkg and rpm sort "~" before
# anything, even the end of the string, and "+" after it, so the builds on the way to a release
# come before it, those after it after it and before the next release's, and each build of a
# branch after the ones before it (a later day, or the same day and more commits).
#
# Without the tree's own git (a source tarball), .git_archival.txt, which `git archive` fills in
# (export-subst, .gitattributes), gives the commit, its time, its refs and `git describe` against
# the nearest release tag (v and three or more numbers: not v0.1.0-notes, nor an alias v0.1):
#   the tarball of the tag v<BASE>         <BASE>
#   of a commit past it                    <BASE>+git<date>.<n>.g<h>  (as from git)
#   of a commit with no tag v<BASE> behind <BASE>~git<date>.0.g<h>    (the count is not known: 0,
#                                                                      before that day's git builds)
# and a tree that holds neither (a copy without .git, the file not filled in) is <BASE>~dev, before
# every build of <BASE>, so that whatever replaces it is an upgrade; it claimed <BASE>, the release
# itself, and a later build from git was a downgrade. OVERRIDE (the cache variable
# CUDNN_COMPAT_PACKAGE_VERSION) replaces the rule for a distributor's own numbering.
#
# Writes OUT_HEADER (#define CUDNN_COMPAT_VERSION) and OUT_CMAKE (set(CUDNN_COMPAT_PACKAGE_VERSION))
# only when their text changes, so a build at the same commit recompiles nothing; prints the
# version when neither is given.
foreach(var IN ITEMS SOURCE_DIR BASE_VERSION)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "package_version.cmake: ${var} not set")
  endif()
endforeach()

# git(VAR ARGS...): git's output, stripped, in VAR; VAR empty when git fails.
function(git var)
  execute_process(COMMAND ${CMAKE_COMMAND} -E env TZ=UTC "${GIT}" -C "${SOURCE_DIR}" ${ARGN}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
  if(NOT rc EQUAL 0)
    set(out "")
  endif()
  set(${var} "${out}" PARENT_SCOPE)
endfunction()

# utc_date(VAR SECONDS): the UTC date, YYYYMMDD, of a Unix time (the civil calendar from days,
# H. Hinnant's algorithm): CMake has no such conversion.
function(utc_date var seconds)
  math(EXPR z "${seconds} / 86400 + 719468")
  math(EXPR era "${z} / 146097")
  math(EXPR doe "${z} - ${era} * 146097")
  math(EXPR yoe "(${doe} - ${doe} / 1460 + ${doe} / 36524 - ${doe} / 146096) / 365")
  math(EXPR doy "${doe} - (365 * ${yoe} + ${yoe} / 4 - ${yoe} / 100)")
  math(EXPR mp "(5 * ${doy} + 2) / 153")
  math(EXPR day "${doy} - (153 * ${mp} + 2) / 5 + 1")
  math(EXPR year "${yoe} + ${era} * 400")
  if(mp LESS 10)
    math(EXPR month "${mp} + 3")
  else()
    math(EXPR month "${mp} - 9")
    math(EXPR year "${year} + 1")
  endif()
  math(EXPR stamp "${year} * 10000 + ${month} * 100 + ${day}")
  set(${var} "${stamp}" PARENT_SCOPE)
endfunction()

# The version of a tree without its own git, from .git_archival.txt (above).
function(archive_version var)
  set(version "${BASE_VERSION}~dev")
  set(file "${SOURCE_DIR}/.git_archival.txt")
  if(EXISTS "${file}")
    file(READ "${file}" text)
  endif()
  if("${text}" MATCHES "commit ([0-9a-f]+)\ntime ([0-9]+)\nrefs ([^\n]*)\ndescribe ([^\n]*)")
    # As `git rev-parse --short=7` gives it, whatever core.abbrev the archive was made with.
    string(SUBSTRING "${CMAKE_MATCH_1}" 0 7 hash)
    set(refs ", ${CMAKE_MATCH_3},")
    set(describe "${CMAKE_MATCH_4}")
    utc_date(date "${CMAKE_MATCH_2}")
    string(REPLACE "." "\\." base "${BASE_VERSION}")
    # The release's own commit, by its tag among the commit's refs (describe may name another tag
    # of the same commit, an alias such as v0.1).
    string(FIND "${refs}" ", tag: v${BASE_VERSION}," at_tag)
    if(at_tag GREATER_EQUAL 0 OR describe STREQUAL "v${BASE_VERSION}")
      set(version "${BASE_VERSION}")
    elseif(describe MATCHES "^v${base}-([0-9]+)-g[0-9a-f]+$")
      set(version "${BASE_VERSION}+git${date}.${CMAKE_MATCH_1}.g${hash}")
    else()
      set(version "${BASE_VERSION}~git${date}.0.g${hash}")
    endif()
  endif()
  set(${var} "${version}" PARENT_SCOPE)
endfunction()

set(version "")
if(NOT "${OVERRIDE}" STREQUAL "")
  set(version "${OVERRIDE}")
else()
  find_program(GIT git)
  if(GIT)
    git(top rev-parse --show-toplevel)
    file(REAL_PATH "${SOURCE_DIR}" source_real)
    if(NOT top STREQUAL "")
      file(REAL_PATH "${top}" top)
    endif()
  endif()
  # Only the source tree's own repository: a tarball unpacked inside another work tree is no build
  # of that tree's history.
  if(GIT AND top STREQUAL source_real)
    set(tag "v${BASE_VERSION}")
    git(at_tag describe --tags --exact-match --match "${tag}" HEAD)
    git(date log -1 --format=%cd --date=format-local:%Y%m%d HEAD)
    git(hash rev-parse --short=7 HEAD)
    git(tag_commit rev-parse --verify --quiet "${tag}^{commit}")
    if(NOT at_tag STREQUAL "")
      set(version "${BASE_VERSION}")
    elseif(NOT tag_commit STREQUAL "" AND NOT date STREQUAL "")
      execute_process(COMMAND "${GIT}" -C "${SOURCE_DIR}" merge-base --is-ancestor "${tag}" HEAD
                      RESULT_VARIABLE behind OUTPUT_QUIET ERROR_QUIET)
      if(behind EQUAL 0)
        git(n rev-list --count "${tag}..HEAD")
        set(version "${BASE_VERSION}+git${date}.${n}.g${hash}")
      else()
        git(n rev-list --count HEAD)
        set(version "${BASE_VERSION}~git${date}.${n}.g${hash}")
      endif()
    elseif(NOT date STREQUAL "")
      git(n rev-list --count HEAD)
      set(version "${BASE_VERSION}~git${date}.${n}.g${hash}")
    endif()
  endif()
  if(version STREQUAL "")
    archive_version(version)
  endif()
endif()
if(NOT version MATCHES "^[0-9][A-Za-z0-9.+~]*$")
  message(FATAL_ERROR "package_version.cmake: '${version}' is no version dpkg and rpm both take "
                      "(a digit, then letters, digits, '.', '+' and '~')")
endif()

if(DEFINED OUT_HEADER)
  file(CONFIGURE OUTPUT "${OUT_HEADER}" CONTENT
       "/* Generated by cmake/package_version.cmake at build time. */\n#pragma once\n#define CUDNN_COMPAT_VERSION \"${version}\"\n")
endif()
if(DEFINED OUT_CMAKE)
  file(CONFIGURE OUTPUT "${OUT_CMAKE}" CONTENT
       "# Generated by cmake/package_version.cmake at build time.\nset(CUDNN_COMPAT_PACKAGE_VERSION \"${version}\")\n")
endif()
if(NOT DEFINED OUT_HEADER AND NOT DEFINED OUT_CMAKE)
  message("${version}")
endif()
