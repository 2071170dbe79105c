# Installed by cpack's DEB generator only (CPACK_CUSTOM_INSTALL_VARIABLES sets
# CUDNN_COMPAT_DEB_EXTRAS): what Debian's tools and admins look for outside the package's one
# prefix. Not for `cmake --install` (no file outside the prefix it is given) and not for the
# relocatable .rpm (a link into /opt would dangle after `rpm --prefix`).
#   /usr/bin/cudnn-compat                   a link to <prefix>/bin/cudnn-compat (the tool finds its
#                                           prefix through /proc/self/exe, so it works as called)
#   /usr/share/doc/cudnn-compat/copyright   Debian's copyright file (machine-readable format)
if(CUDNN_COMPAT_DEB_EXTRAS)
  set(root "$ENV{DESTDIR}")
  file(MAKE_DIRECTORY "${root}/usr/bin" "${root}/usr/share/doc/cudnn-compat")
  file(CREATE_LINK "${CMAKE_INSTALL_PREFIX}/bin/cudnn-compat" "${root}/usr/bin/cudnn-compat"
       SYMBOLIC)
  file(READ "@CUDNN_COMPAT_COPYRIGHT@" copyright)
  file(WRITE "${root}/usr/share/doc/cudnn-compat/copyright" "${copyright}")
endif()
