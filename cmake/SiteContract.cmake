# The site files' contract, written once (docs/contract.md explains every line): the names of the
# map's derived tables, their first and last lines, the module names the hooks treat as cuDNN and
# the install layout. configure_file() carries these values into the one C header that the shim
# and the engine include (site_contract.h), the Lmod hook's Lua module (site_contract.lua) and the
# Environment Modules hook's Tcl file (site_contract.tcl); no reader spells any of them itself.
#
# Change a table's format: raise its number here. Every reader of the old number then refuses the
# new table (and the reverse), so mixed installs fall back to the engine instead of misreading.

# The map's derived tables: the map's path with these suffixes, beside it.
set(SITE_CACHE_SUFFIX ".cache")      # the parsed map (the engine)
set(SITE_FITS_SUFFIX ".fits")        # module/need pairs that fit (both hooks)
set(SITE_MISFITS_SUFFIX ".misfits")  # the warnings of the pairs that do not (both hooks)
set(SITE_DECIDE_SUFFIX ".decide")    # the decision table (the shim; the engine's known probes)
# Each table's first line: "<format><TAB><stamp fields>" (docs/contract.md, "The stamp").
set(SITE_CACHE_FORMAT "cudnn-compat-map-cache 8")
set(SITE_FITS_FORMAT "cudnn-compat-fits 3")
set(SITE_MISFITS_FORMAT "cudnn-compat-misfits 4")
set(SITE_DECIDE_FORMAT "cudnn-compat-decide 5")
# Each table's last line: a table without it was cut short.
set(SITE_END_LINE "end")
# The stamp's group field when the map names no trusted group.
set(SITE_NO_GROUP "-")
# In the misfits table's warnings, two control characters (written "\<code>" in C, Lua and Tcl
# alike): where the hook puts the loaded module's name, and its own word for swapping one module
# for another (Lmod's "swap", Environment Modules' "switch"). A module name holds no control
# character (map validation).
set(SITE_MODULE_MARK_CODE 1)
set(SITE_SWAP_MARK_CODE 2)

# A loaded module is a cuDNN module when the first component of its name, lower-cased, contains
# this word and is not cudnn-compat's own module (which switches the shim on and holds no cuDNN).
set(SITE_CUDNN_WORD "cudnn")
set(SITE_OWN_MODULE "cudnn-compat")

# Where a node's facts (its GPUs, its driver's CUDA) are remembered for one boot, written by the
# engine and read by the shim and both hooks: <dir prefix><euid>/<file prefix><node>, the node
# being $SLURMD_NODENAME or the host name; its boot line holds the boot id read from SITE_BOOT_ID
# (the rule of this boot: shim/shared/node_file.h).
set(SITE_NODE_DIR_PREFIX "/tmp/cudnn-compat-")
set(SITE_NODE_FILE_PREFIX "node-")
set(SITE_BOOT_ID "/proc/sys/kernel/random/boot_id")
# The node file's lines, in this order, each "<key>\t<value>", then SITE_END_LINE (the grammar:
# shim/shared/node_file.h, which names the lines by their place).
set(SITE_NODE_FILE_KEYS boot gpus driver source problem)
list(JOIN SITE_NODE_FILE_KEYS "\", \"" SITE_NODE_FILE_KEYS_QUOTED)
list(JOIN SITE_NODE_FILE_KEYS " " SITE_NODE_FILE_KEYS_SPACED)
# A node file is a few hundred bytes: a larger one (a file truncated to 2 GB) is not believed,
# judged by its size before any read, and the engine writes it anew.
set(SITE_NODE_FILE_MAX 4096)

# A map is a few hundred KB even at a site of thousands of modules (1,000 modules over six releases:
# tables of 39 and 68 KB). A map or table larger than this is not read, judged by its size before
# any read: a map truncated to 4 GB, or a file that grew by mistake, must not hold every process
# that loads cuDNN, nor fill an engine's memory.
set(SITE_FILE_MAX 16777216)

# The install layout, relative to the prefix (found at run time from each file's own place).
set(SITE_BINDIR ${CMAKE_INSTALL_BINDIR})
set(SITE_PKGLIBDIR lib/cudnn-compat)
set(SITE_SYSCONFDIR ${CMAKE_INSTALL_SYSCONFDIR})
set(SITE_LMOD_DIR ${CMAKE_INSTALL_DATADIR}/cudnn-compat/lmod)
set(SITE_ENVMODULES_DIR ${CMAKE_INSTALL_DATADIR}/cudnn-compat/envmodules)
# The map every reader looks for after $CUDNN_COMPAT_MAP, and then the system's.
set(SITE_MAP_NAME map.toml)
set(SITE_SYSTEM_MAP /etc/cudnn-compat/map.toml)
if(IS_ABSOLUTE ${SITE_SYSCONFDIR})
  set(SITE_INSTALLED_MAP ${SITE_SYSCONFDIR}/cudnn-compat/${SITE_MAP_NAME})
else()
  set(SITE_INSTALLED_MAP /p/${SITE_SYSCONFDIR}/cudnn-compat/${SITE_MAP_NAME})
endif()
# The prefix /usr (the .deb, or `cmake --install --prefix /usr`) follows the FHS as GNUInstallDirs
# does for that prefix: there is no /usr/etc, so a tree found at run time under /usr takes the
# system map as its installed map. Each reader compares its own directory with the one it has under
# this prefix (SITE_FHS_PKGLIBDIR, and the hooks' fhs_here).
set(SITE_FHS_PREFIX /usr)
# The example map: beside the installed map in a tree that holds its map (etc/cudnn-compat/ under
# the prefix); under share/cudnn-compat/ where the map is outside the prefix (the prefix /usr, or an
# absolute sysconfdir): nothing is installed into the admin's /etc, whose map.toml is the site's.
set(SITE_EXAMPLE_MAP_BESIDE ${SITE_SYSCONFDIR}/cudnn-compat/${SITE_MAP_NAME}.example)
set(SITE_EXAMPLE_MAP_SHARED ${CMAKE_INSTALL_DATADIR}/cudnn-compat/${SITE_MAP_NAME}.example)
if(IS_ABSOLUTE ${SITE_SYSCONFDIR})
  set(SITE_EXAMPLE_MAP ${SITE_EXAMPLE_MAP_SHARED})
else()
  set(SITE_EXAMPLE_MAP ${SITE_EXAMPLE_MAP_BESIDE})
endif()

# site_contract_from(VAR DIR): the installed map as seen from DIR (relative to the prefix): relative
# when the sysconfdir is under the prefix, absolute when it is not (-DCMAKE_INSTALL_SYSCONFDIR=/etc).
function(site_contract_from var dir)
  if(IS_ABSOLUTE ${SITE_SYSCONFDIR})
    set(${var} ${SITE_INSTALLED_MAP} PARENT_SCOPE)
  else()
    file(RELATIVE_PATH rel /p/${dir} ${SITE_INSTALLED_MAP})
    set(${var} ${rel} PARENT_SCOPE)
  endif()
endfunction()
site_contract_from(SITE_MAP_FROM_PKGLIBDIR ${SITE_PKGLIBDIR})
site_contract_from(SITE_MAP_FROM_LMOD ${SITE_LMOD_DIR})
site_contract_from(SITE_MAP_FROM_ENVMODULES ${SITE_ENVMODULES_DIR})
set(SITE_FHS_PKGLIBDIR ${SITE_FHS_PREFIX}/${SITE_PKGLIBDIR})
set(SITE_FHS_LMOD_DIR ${SITE_FHS_PREFIX}/${SITE_LMOD_DIR})
set(SITE_FHS_ENVMODULES_DIR ${SITE_FHS_PREFIX}/${SITE_ENVMODULES_DIR})
file(RELATIVE_PATH SITE_PREFIX_FROM_LMOD /p/${SITE_LMOD_DIR} /p)
file(RELATIVE_PATH SITE_PREFIX_FROM_ENVMODULES /p/${SITE_ENVMODULES_DIR} /p)

set(SITE_CONTRACT_DIR ${PROJECT_BINARY_DIR}/generated)
set(SITE_SHARE_DIR ${PROJECT_BINARY_DIR}/${CMAKE_INSTALL_DATADIR}/cudnn-compat)
configure_file(${CMAKE_CURRENT_LIST_DIR}/site_contract.h.in ${SITE_CONTRACT_DIR}/site_contract.h @ONLY)
configure_file(${CMAKE_CURRENT_LIST_DIR}/site_contract.lua.in ${SITE_SHARE_DIR}/lmod/site_contract.lua @ONLY)
configure_file(${CMAKE_CURRENT_LIST_DIR}/site_contract.tcl.in
               ${SITE_SHARE_DIR}/envmodules/site_contract.tcl @ONLY)
install(FILES ${SITE_SHARE_DIR}/lmod/site_contract.lua DESTINATION ${SITE_LMOD_DIR})
install(FILES ${SITE_SHARE_DIR}/envmodules/site_contract.tcl DESTINATION ${SITE_ENVMODULES_DIR})
