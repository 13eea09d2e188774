# Helpers that give every streamhal library and tool the same build, usage
# requirements and install rules. Adding a library or a tool is one call.

# add_streamhal_library(StreamhalFoo sources... [TEST_ONLY]
#                       [PACKAGE_COMPONENT Packing|Core|Exec] <add_mlir_library args>)
#
# An add_mlir_library that also
# - carries streamhal's include directories (source and generated headers in
#   the build tree, <prefix>/include once installed) and MLIR's, so linking it
#   is enough to use its headers;
# - unless TEST_ONLY: is installed, exported as `streamhal::Foo` (the name
#   without the `Streamhal` prefix) in streamhalTargets.cmake, and linked by
#   the umbrella target `streamhal::streamhal`;
# - has the build-tree alias `streamhal::Foo` for projects that embed
#   streamhal with add_subdirectory.
function(add_streamhal_library name)
  cmake_parse_arguments(ARG "TEST_ONLY" "PACKAGE_COMPONENT" "" ${ARGN})
  # Installed by the rules below, not into MLIR's own export set.
  add_mlir_library(${name} DISABLE_INSTALL EXCLUDE_FROM_LIBMLIR
    ${ARG_UNPARSED_ARGUMENTS})
  target_include_directories(${name} PUBLIC
    $<BUILD_INTERFACE:${PROJECT_SOURCE_DIR}/include>
    $<BUILD_INTERFACE:${PROJECT_BINARY_DIR}/include>
    $<INSTALL_INTERFACE:include>)
  # The package component it is exported in (streamhalConfig.cmake): Packing
  # needs LLVM only, Exec MLIR and (when built with it) Vulkan, the rest
  # (Core) MLIR.
  if(NOT ARG_PACKAGE_COMPONENT)
    set(ARG_PACKAGE_COMPONENT Core)
  endif()
  if(ARG_PACKAGE_COMPONENT STREQUAL "Core")
    set(export_set streamhalTargets)
  else()
    set(export_set streamhal${ARG_PACKAGE_COMPONENT}Targets)
  endif()
  if(ARG_PACKAGE_COMPONENT STREQUAL "Packing")
    target_link_libraries(${name} PUBLIC StreamhalLLVMUsage)
  else()
    target_link_libraries(${name} PUBLIC StreamhalMLIRUsage)
  endif()
  string(REGEX REPLACE "^Streamhal" "" export_name "${name}")
  set_target_properties(${name} PROPERTIES EXPORT_NAME ${export_name})
  add_library(streamhal::${export_name} ALIAS ${name})
  if(NOT ARG_TEST_ONLY)
    install(TARGETS ${name} EXPORT ${export_set}
      ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT streamhal
      LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT streamhal)
    target_link_libraries(StreamhalAll INTERFACE ${name})
    set_property(GLOBAL APPEND PROPERTY STREAMHAL_LIBS ${name})
  endif()
endfunction()

# add_streamhal_tool(hal-foo sources... [LINK_LIBS libs...] [NO_INSTALL]
#                    [INSTALLED_NAME name])
#
# An executable in <build>/bin, installed into <prefix>/bin; the installed
# copy finds the shared MLIR and LLVM libraries it was linked with.
# NO_INSTALL: the build tree's only. INSTALLED_NAME: the executable is built
# into <build>/sdk-bin under that name and installed as it (a variant of a
# build-tree tool, such as hal-opt without the test passes).
function(add_streamhal_tool name)
  cmake_parse_arguments(ARG "NO_INSTALL" "INSTALLED_NAME" "LINK_LIBS" ${ARGN})
  add_llvm_executable(${name} ${ARG_UNPARSED_ARGUMENTS})
  if(ARG_INSTALLED_NAME)
    set_target_properties(${name} PROPERTIES
      OUTPUT_NAME ${ARG_INSTALLED_NAME}
      RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/sdk-bin)
  endif()
  llvm_update_compile_flags(${name})
  target_link_libraries(${name} PRIVATE ${ARG_LINK_LIBS})
  # tools/common: what every tool shares (its --version).
  target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/tools/common)
  # add_llvm_executable's install RUNPATH is only $ORIGIN/../lib, which finds
  # libMLIR and libLLVM only when the tool is installed into the MLIR
  # installation itself. Installed anywhere else, the tool would not start,
  # so it also names the directories the build linked them from (unless the
  # user chose CMAKE_INSTALL_RPATH).
  if(NOT CMAKE_INSTALL_RPATH)
    set_property(TARGET ${name} APPEND PROPERTY INSTALL_RPATH
      ${STREAMHAL_MLIR_RUNTIME_DIRS})
  endif()
  # STREAMHAL_TOOLS: the tools by the names users run (lit substitutes
  # them); a variant installed under another tool's name is not one.
  if(ARG_INSTALLED_NAME)
    set_property(GLOBAL APPEND PROPERTY STREAMHAL_TOOL_VARIANTS ${name})
  else()
    set_property(GLOBAL APPEND PROPERTY STREAMHAL_TOOLS ${name})
  endif()
  if(ARG_NO_INSTALL)
    return()
  endif()
  install(TARGETS ${name} RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
    COMPONENT streamhal)
endfunction()
