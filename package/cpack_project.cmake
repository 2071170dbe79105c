# Read by cpack once per generator (CPACK_PROJECT_CONFIG_FILE). Both packages carry this build's
# version (cmake/package_version.cmake: the project's, with a ~git/+git suffix between releases),
# the one --version prints: worked out again here, before cpack's own build (its preinstall step),
# which then compiles the same version into the programs.
execute_process(COMMAND ${CPACK_CUDNN_COMPAT_VERSION_COMMAND} COMMAND_ERROR_IS_FATAL ANY)
include("${CPACK_CUDNN_COMPAT_VERSION_FILE}")
set(CPACK_PACKAGE_VERSION "${CUDNN_COMPAT_PACKAGE_VERSION}")  # the .deb's and .rpm's by default
set(CPACK_PACKAGE_FILE_NAME "${CPACK_PACKAGE_NAME}-${CUDNN_COMPAT_PACKAGE_VERSION}-${CPACK_CUDNN_COMPAT_PROCESSOR}")
# The .deb installs under /usr, where the contract follows the FHS (cmake/SiteContract.cmake: the
# map at /etc/cudnn-compat/map.toml, the example map under /usr/share/cudnn-compat), and gets the
# files of package/deb_extras.cmake; the .rpm stays the relocatable tree under /opt/cudnn-compat.
if(CPACK_GENERATOR STREQUAL "DEB")
  set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
  set(CPACK_CUSTOM_INSTALL_VARIABLES "CUDNN_COMPAT_DEB_EXTRAS=ON")
endif()
