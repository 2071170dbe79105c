# Read by cpack once per generator (CPACK_PROJECT_CONFIG_FILE). The .deb installs under /usr, where
# the contract follows the FHS (cmake/SiteContract.cmake: the map at /etc/cudnn-compat/map.toml,
# the example map under /usr/share/cudnn-compat), and gets the files of package/deb_extras.cmake;
# the .rpm stays the relocatable tree under /opt/cudnn-compat.
if(CPACK_GENERATOR STREQUAL "DEB")
  set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
  set(CPACK_CUSTOM_INSTALL_VARIABLES "CUDNN_COMPAT_DEB_EXTRAS=ON")
endif()
