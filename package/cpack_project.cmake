# Read by cpack once per generator (CPACK_PROJECT_CONFIG_FILE): the .deb gets the files of
# package/deb_extras.cmake, which need a fixed /opt prefix (the .rpm is relocatable).
if(CPACK_GENERATOR STREQUAL "DEB")
  set(CPACK_CUSTOM_INSTALL_VARIABLES "CUDNN_COMPAT_DEB_EXTRAS=ON")
endif()
