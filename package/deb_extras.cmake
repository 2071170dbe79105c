# Installed by cpack's DEB generator only (CPACK_CUSTOM_INSTALL_VARIABLES sets
# CUDNN_COMPAT_DEB_EXTRAS; the prefix is /usr): what Debian's policy and lintian ask of a package,
# and not of `cmake --install` or the relocatable .rpm.
#   share/doc/cudnn-compat/copyright      Debian's copyright file (machine-readable format), with
#                                         the statically linked libraries (deb_copyright.cmake)
#   share/doc/cudnn-compat/changelog.gz   CHANGELOG.md as a Debian changelog (written at build time)
#   share/man/man*/*.gz                   the manual pages compressed, as man-db expects them
#   share/lintian/overrides/cudnn-compat  the override for the static engine (its comment says why)
#   share/zsh/vendor-completions/         the zsh completion, where Debian's zsh looks for a
#                                         package's (site-functions, elsewhere, is the admin's)
# Compressed with gzip -9n (no name or time stamp inside), as dh_compress does.
if(CUDNN_COMPAT_DEB_EXTRAS)
  set(root "$ENV{DESTDIR}${CMAKE_INSTALL_PREFIX}")
  set(doc "${root}/share/doc/cudnn-compat")
  file(MAKE_DIRECTORY "${doc}" "${root}/share/lintian/overrides")
  execute_process(COMMAND "@CMAKE_COMMAND@" "-DOUT=${doc}/copyright"
                          "-DLICENSE=@PROJECT_SOURCE_DIR@/LICENSE" "-DLICENSE_NAME=@CUDNN_COMPAT_LICENSE@"
                          "-DCXX=@CMAKE_CXX_COMPILER@" "-DSQLITE=@cudnn_compat_static_sqlite@"
                          "-DCLI11=@CUDNN_COMPAT_CLI11_HEADER@" "-DTOMLPP=@CUDNN_COMPAT_TOMLPP_HEADER@"
                          "-DNLOHMANN=@CUDNN_COMPAT_JSON_HEADER@" "-DSTATIC_ENGINE=@cudnn_compat_static@"
                          "-DSTATIC_RUNTIME=@cudnn_compat_static@"
                          -P "@PROJECT_SOURCE_DIR@/package/deb_copyright.cmake"
                  COMMAND_ERROR_IS_FATAL ANY)
  file(COPY_FILE "@PROJECT_SOURCE_DIR@/package/lintian-overrides" "${root}/share/lintian/overrides/cudnn-compat")
  find_program(gzip gzip REQUIRED)
  execute_process(COMMAND "${gzip}" -9n -c "@CUDNN_COMPAT_DEBIAN_CHANGELOG@"
                  OUTPUT_FILE "${doc}/changelog.gz" COMMAND_ERROR_IS_FATAL ANY)
  file(GLOB pages "${root}/share/man/man*/*.[0-9]")
  foreach(page IN LISTS pages)
    execute_process(COMMAND "${gzip}" -9nf "${page}" COMMAND_ERROR_IS_FATAL ANY)
  endforeach()
  set(zsh "${root}/share/zsh")
  file(MAKE_DIRECTORY "${zsh}/vendor-completions")
  file(RENAME "${zsh}/site-functions/_cudnn-compat" "${zsh}/vendor-completions/_cudnn-compat")
  file(REMOVE_RECURSE "${zsh}/site-functions")  # it held that file alone
  # Files in a package are 0644 (directories 0755) whatever the builder's umask.
  file(CHMOD "${doc}/copyright" "${doc}/changelog.gz" "${root}/share/lintian/overrides/cudnn-compat"
       PERMISSIONS OWNER_READ OWNER_WRITE GROUP_READ WORLD_READ)
endif()
