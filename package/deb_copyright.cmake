# cmake -DOUT=copyright -DLICENSE=LICENSE -DLICENSE_NAME=MIT -DCXX=c++ -DSQLITE=libsqlite3.a
#       -DCLI11=.../CLI/CLI.hpp -DTOMLPP=.../toml++/toml.h -DNLOHMANN=.../nlohmann/json.hpp
#       -DSTATIC_ENGINE=ON|OFF -DSTATIC_RUNTIME=ON|OFF -P deb_copyright.cmake
#
# The .deb's /usr/share/doc/cudnn-compat/copyright (copyright-format 1.0), written when cpack makes
# the .deb (package/deb_extras.cmake): this project's licence, then each project whose code the
# build linked statically into the shipped programs, found by the file the build took it from.
# Each file's Debian package (dpkg -S) names the licence text: taken from that package's own
# /usr/share/doc/<package>/copyright on the build machine, not written here, with the package and
# its source package's version, which is also the corresponding source the LGPL asks for (glibc).
# SQLITE is empty where SQLite is linked dynamically; STATIC_ENGINE and STATIC_RUNTIME are OFF in a
# sanitizer build (nothing static).
cmake_policy(VERSION 3.25)
foreach(var IN ITEMS OUT LICENSE LICENSE_NAME CXX CLI11 TOMLPP NLOHMANN STATIC_ENGINE STATIC_RUNTIME)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "deb_copyright.cmake: ${var} not set")
  endif()
endforeach()
find_program(DPKG_QUERY dpkg-query REQUIRED)

# As the format writes a field's text: each line led by a space, an empty line " ."
function(continuation var text)
  string(STRIP "${text}" text)
  string(REGEX REPLACE "[ \t]+\n" "\n" text "${text}")
  string(REGEX REPLACE "\n\n+" "\n.\n" text "${text}")
  string(REGEX REPLACE "\n" "\n " text " ${text}")
  set(${var} "${text}" PARENT_SCOPE)
endfunction()

# package_of(VAR FILE): the Debian package holding FILE (links resolved), its version, its source
# package and that one's version: "package version source source-version".
function(package_of var file)
  file(REAL_PATH "${file}" real)
  foreach(candidate IN ITEMS "${file}" "${real}")
    execute_process(COMMAND ${DPKG_QUERY} -S "${candidate}" RESULT_VARIABLE rc
                    OUTPUT_VARIABLE out ERROR_QUIET OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(rc EQUAL 0)
      break()
    endif()
  endforeach()
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "deb_copyright.cmake: ${file} is in no Debian package: the .deb's copyright "
                        "file cannot name its licence (build the .deb where it comes from a package)")
  endif()
  string(REGEX REPLACE ":.*" "" package "${out}")
  execute_process(COMMAND ${DPKG_QUERY} -W -f "\${Package} \${Version} \${source:Package} \${source:Version}"
                          "${package}"
                  OUTPUT_VARIABLE info OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
  set(${var} "${info}" PARENT_SCOPE)
endfunction()

# The paragraphs of a copyright-format file, each as one string (";" and "[" stood aside).
function(dep5_paragraphs var file)
  file(READ "${file}" text)
  string(REPLACE ";" "@SC@" text "${text}")
  string(REPLACE "[" "@LB@" text "${text}")
  string(REPLACE "]" "@RB@" text "${text}")
  string(REGEX REPLACE "\n[ \t]*\n" ";" paragraphs "${text}")
  set(${var} "${paragraphs}" PARENT_SCOPE)
endfunction()
function(restore var text)
  string(REPLACE "@SC@" ";" text "${text}")
  string(REPLACE "@LB@" "[" text "${text}")
  string(REPLACE "@RB@" "]" text "${text}")
  set(${var} "${text}" PARENT_SCOPE)
endfunction()
# A field of a paragraph with its continuation lines, as written (first line after the colon).
function(dep5_field var paragraph field)
  if(paragraph MATCHES "(^|\n)${field}:[ \t]*([^\n]*(\n[ \t][^\n]*)*)")
    set(${var} "${CMAKE_MATCH_2}" PARENT_SCOPE)
  else()
    set(${var} "" PARENT_SCOPE)
  endif()
endfunction()

# dep5_upstream(COPYRIGHT LICENSE TEXT FILE): from a copyright-format file, the Copyright and the
# License name of its "Files: *" paragraph, and that licence's own paragraph's text.
function(dep5_upstream copyright_var license_var text_var file)
  dep5_paragraphs(paragraphs "${file}")
  set(copyright "")
  foreach(p IN LISTS paragraphs)
    dep5_field(files "${p}" Files)
    if(files MATCHES "^\\*[ \t]*$" AND copyright STREQUAL "")
      dep5_field(copyright "${p}" Copyright)
      dep5_field(license "${p}" License)
    endif()
  endforeach()
  string(STRIP "${license}" license)
  set(text "")
  foreach(p IN LISTS paragraphs)
    string(STRIP "${p}" p)
    if(p MATCHES "^License:[ \t]*${license}[ \t]*\n(.*)$")
      set(text "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  if(copyright STREQUAL "" OR text STREQUAL "")
    message(FATAL_ERROR "deb_copyright.cmake: no 'Files: *' paragraph or no text for ${license} in ${file}")
  endif()
  restore(copyright "${copyright}")
  restore(text "${text}")
  # The text as plain lines (continuation() writes it back in the format's form).
  string(REGEX REPLACE "\n[ \t]" "\n" text "\n${text}")
  string(REGEX REPLACE "\n\\.[ \t]*\n" "\n\n" text "${text}")
  string(REGEX REPLACE "\n\\.[ \t]*\n" "\n\n" text "${text}")
  string(REGEX REPLACE "[ \t]*\n[ \t]*" "\n " copyright "${copyright}")
  set(${copyright_var} "${copyright}" PARENT_SCOPE)
  set(${license_var} "${license}" PARENT_SCOPE)
  set(${text_var} "${text}" PARENT_SCOPE)
endfunction()

# between(VAR FILE START END): FILE's text from the line holding START to the one holding END.
function(between var file start end)
  file(READ "${file}" text)
  string(FIND "${text}" "${start}" a)
  string(FIND "${text}" "${end}" b)
  if(a LESS 0 OR b LESS a)
    message(FATAL_ERROR "deb_copyright.cmake: '${start}' ... '${end}' not found in ${file}")
  endif()
  string(LENGTH "${end}" n)
  math(EXPR n "${b} + ${n} - ${a}")
  string(SUBSTRING "${text}" ${a} ${n} part)
  set(${var} "${part}" PARENT_SCOPE)
endfunction()

set(programs "usr/bin/cudnn-compat")
set(engine "usr/lib/cudnn-compat/cudnn-compat-select")
set(licenses "")
set(license_paragraphs "")
# Per shipped program (its path, with "/" and "." stood aside as "_"): the copyright lines, the
# licences, and the lines of its Comment that name what was linked into it.
foreach(binary IN ITEMS "${programs}" "${engine}")
  string(MAKE_C_IDENTIFIER "${binary}" key)
  set(copyright_${key} "")
  set(licenses_${key} "")
  set(parts_${key} "")
endforeach()
# add(NAME FILE IN LICENSE COPYRIGHT [TEXT]): NAME, taken from FILE into the programs IN (a list),
# under LICENSE (whose TEXT is given once).
function(add name file in license copyright)
  package_of(info "${file}")
  string(REPLACE " " ";" info "${info}")
  list(GET info 0 package)
  list(GET info 1 version)
  list(GET info 2 source)
  list(GET info 3 source_version)
  foreach(binary IN LISTS in)
    string(MAKE_C_IDENTIFIER "${binary}" key)
    string(FIND "${copyright_${key}}\n" "\n ${copyright}\n" known)
    if(known LESS 0)  # libstdc++ and libgcc: one holder
      string(APPEND copyright_${key} "\n ${copyright}")
    endif()
    if(NOT "${license}" IN_LIST licenses_${key})
      list(APPEND licenses_${key} "${license}")
    endif()
    string(APPEND parts_${key} "\n ${name}: ${license};\n  from the Debian package ${package} ${version}\n  (source package ${source} ${source_version}).")
    foreach(var IN ITEMS copyright_${key} licenses_${key} parts_${key})
      set(${var} "${${var}}" PARENT_SCOPE)
    endforeach()
  endforeach()
  if(ARGC GREATER 5 AND NOT "${license}" IN_LIST licenses)
    continuation(text "${ARGV5}")
    set(licenses ${licenses} "${license}" PARENT_SCOPE)
    string(APPEND license_paragraphs "
License: ${license}
${text}
")
    set(license_paragraphs "${license_paragraphs}" PARENT_SCOPE)
  endif()
endfunction()

# The header-only libraries, compiled into the programs that include them.
set(both "${programs};${engine}")
foreach(lib IN ITEMS "CLI11|${CLI11}|programs" "toml++|${TOMLPP}|both"
                     "nlohmann/json|${NLOHMANN}|both")
  string(REPLACE "|" ";" lib "${lib}")
  list(GET lib 0 name)
  list(GET lib 1 header)
  list(GET lib 2 where)
  set(in "${${where}}")
  package_of(info "${header}")
  string(REGEX REPLACE " .*" "" package "${info}")
  dep5_upstream(copyright license text "/usr/share/doc/${package}/copyright")
  get_filename_component(dir "${header}" DIRECTORY)
  add("${name} (header-only)" "${dir}/*" "${in}" "${license}" "${copyright}" "${text}")
endforeach()
if(NOT "${SQLITE}" STREQUAL "")
  package_of(info "${SQLITE}")
  string(REGEX REPLACE " .*" "" package "${info}")
  dep5_upstream(copyright license text "/usr/share/doc/${package}/copyright")
  add("SQLite" "${SQLITE}" "${programs}" "${license}" "${copyright}" "${text}")
endif()

# GCC's runtime (libstdc++, libgcc): GPL-3+ with the GCC Runtime Library Exception 3.1, whose text
# the GCC packages' copyright file carries.
if(STATIC_RUNTIME OR STATIC_ENGINE)
  set(in "${programs}")
  if(STATIC_ENGINE)
    set(in "${both}")
  endif()
  execute_process(COMMAND "${CXX}" -print-file-name=libstdc++.a OUTPUT_VARIABLE libstdcxx
                  OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
  execute_process(COMMAND "${CXX}" -print-libgcc-file-name OUTPUT_VARIABLE libgcc
                  OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
  package_of(info "${libstdcxx}")
  string(REGEX REPLACE " .*" "" package "${info}")
  between(exception "/usr/share/doc/${package}/copyright" "GCC RUNTIME LIBRARY EXCEPTION"
          "requirements of the license of GCC.")
  set(gcc_license "GPL-3+ with GCC-exception-3.1 exception")
  set(gcc_text "This library is free software; you can redistribute it and/or modify it under the
terms of the GNU General Public License as published by the Free Software Foundation; either
version 3, or (at your option) any later version, with the GCC Runtime Library Exception, version
3.1, below.

On Debian systems, the complete text of the GNU General Public License version 3 can be found in
/usr/share/common-licenses/GPL-3.

${exception}")
  between(fsf "/usr/share/doc/${package}/copyright" "GCC is Copyright (C)" "Free Software Foundation, Inc.")
  string(REGEX REPLACE "^GCC is Copyright \\(C\\) *" "" fsf "${fsf}")
  string(REGEX REPLACE "[ \t\n]+" " " fsf "${fsf}")
  add("libstdc++ (the GNU C++ library)" "${libstdcxx}" "${in}" "${gcc_license}" "${fsf}" "${gcc_text}")
  add("libgcc (GCC's low-level runtime)" "${libgcc}" "${in}" "${gcc_license}" "${fsf}")
endif()

# The GNU C Library, in the engine only (the other programs link it dynamically): LGPL-2.1+.
set(glibc_note "")
if(STATIC_ENGINE)
  execute_process(COMMAND "${CXX}" -print-file-name=libc.a OUTPUT_VARIABLE libc
                  OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
  package_of(info "${libc}")
  string(REPLACE " " ";" info "${info}")
  list(GET info 0 package)
  list(GET info 2 glibc_source)
  list(GET info 3 glibc_version)
  set(doc "/usr/share/doc/${package}/copyright")
  if(NOT EXISTS "${doc}")
    set(doc "/usr/share/doc/libc6/copyright")
  endif()
  between(notice "${doc}" "The GNU C Library is free software"
          "/usr/share/common-licenses/LGPL-2.1'.")
  file(STRINGS "${doc}" glibc_copyright REGEX "Copyright \\(C\\) [0-9-]+ Free Software Foundation"
       LIMIT_COUNT 1)
  string(REGEX REPLACE "^.*Copyright \\(C\\) *" "" glibc_copyright "${glibc_copyright}")
  add("The GNU C Library" "${libc}" "${engine}" "LGPL-2.1+" "${glibc_copyright}" "${notice}")
  set(glibc_note "
 .
 The GNU C Library is under the LGPL 2.1 or later, which lets whoever receives
 the engine relink it with a modified library. Its corresponding source is the
 Debian source package ${glibc_source} ${glibc_version} (apt-get source
 ${glibc_source}=${glibc_version}, or snapshot.debian.org); the engine's own
 source is cudnn-compat's at the commit its version names (the .gHASH at the
 end of a ~git or +git version), built as docs/admin-guide.md, \"Licences\", says.")
endif()

file(STRINGS "${LICENSE}" own_copyright REGEX "^Copyright" LIMIT_COUNT 1)
string(REGEX REPLACE "^Copyright *(\\([cC]\\))? *" "" own_copyright "${own_copyright}")
# A paragraph per program that carries others' code: every holder and licence of what is in it.
set(paragraphs "")
foreach(binary IN ITEMS "${programs}" "${engine}")
  string(MAKE_C_IDENTIFIER "${binary}" key)
  if("${parts_${key}}" STREQUAL "")
    continue()
  endif()
  list(JOIN licenses_${key} " and " names)
  string(APPEND paragraphs "
Files: ${binary}
Copyright: ${own_copyright}${copyright_${key}}
License: ${LICENSE_NAME} and ${names}
Comment: cudnn-compat's own code (${LICENSE_NAME}) and, compiled or linked into
 it statically when the package was built:${parts_${key}}
")
endforeach()
file(READ "${LICENSE}" own_text)
continuation(own_text "${own_text}")
file(WRITE "${OUT}" "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: cudnn-compat
Comment: cuDNN itself is not part of this package; the tests' FAKE cuDNN
 releases are not installed. Two programs carry code of other projects,
 linked into them statically when the package was built: their paragraphs
 name each project, its licence and the Debian package it came from.${glibc_note}

Files: *
Copyright: ${own_copyright}
License: ${LICENSE_NAME}
${own_text}
${paragraphs}${license_paragraphs}")
