# `cmake --install build --prefix P` gives a package a downstream project uses
# with find_package(streamhal CONFIG REQUIRED) and
# target_link_libraries(x PRIVATE streamhal::streamhal):
#   P/include/streamhal/...           public headers, .td files, generated .inc
#   P/lib/libStreamhal*.a             every library except the test-only ones
#   P/bin/hal-*                       the tools (when STREAMHAL_BUILD_TOOLS)
#   P/lib/cmake/streamhal/            streamhalConfig.cmake, version, targets
include(CMakePackageConfigHelpers)

set(STREAMHAL_INSTALL_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/streamhal)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/streamhal
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT streamhal
  FILES_MATCHING PATTERN "*.h" PATTERN "*.td"
  PATTERN "TestPasses" EXCLUDE)
install(DIRECTORY ${PROJECT_BINARY_DIR}/include/streamhal
  DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT streamhal
  FILES_MATCHING PATTERN "*.h" PATTERN "*.inc"
  PATTERN "CMakeFiles" EXCLUDE)

# One export set per package component, so that a component's file needs
# only its own dependencies: Packing (LLVM), Core (MLIR), Exec (MLIR, and
# Vulkan when the Vulkan device is built).
foreach(export_set streamhalPackingTargets streamhalTargets
                   streamhalExecTargets)
  install(EXPORT ${export_set} NAMESPACE streamhal::
    DESTINATION ${STREAMHAL_INSTALL_CMAKE_DIR} COMPONENT streamhal)
endforeach()

configure_package_config_file(
  ${PROJECT_SOURCE_DIR}/cmake/streamhalConfig.cmake.in
  ${PROJECT_BINARY_DIR}/lib/cmake/streamhal/streamhalConfig.cmake
  INSTALL_DESTINATION ${STREAMHAL_INSTALL_CMAKE_DIR}
  PATH_VARS CMAKE_INSTALL_INCLUDEDIR)
write_basic_package_version_file(
  ${PROJECT_BINARY_DIR}/lib/cmake/streamhal/streamhalConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES
  ${PROJECT_BINARY_DIR}/lib/cmake/streamhal/streamhalConfig.cmake
  ${PROJECT_BINARY_DIR}/lib/cmake/streamhal/streamhalConfigVersion.cmake
  DESTINATION ${STREAMHAL_INSTALL_CMAKE_DIR} COMPONENT streamhal)

# Everything `cmake --install` copies, so a target can build it first.
add_custom_target(streamhal-install-deps)
get_property(streamhal_tools GLOBAL PROPERTY STREAMHAL_TOOLS)
get_property(streamhal_tool_variants GLOBAL PROPERTY STREAMHAL_TOOL_VARIANTS)
get_property(streamhal_libs GLOBAL PROPERTY STREAMHAL_LIBS)
add_dependencies(streamhal-install-deps ${streamhal_libs} ${streamhal_tools}
  ${streamhal_tool_variants})
