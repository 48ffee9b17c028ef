# Install layout and the Debian package (docs/install.md):
#   bin/mcpspec                         the CLI
#   share/mcpspec/scenarios/            the bundled scenarios (what an installed mcpspec runs)
#   share/mcpspec/schemas/              protocol schemas, the scenario format, the JSON report's schema
#   share/doc/mcpspec/                  README and docs
#   share/man/man1/mcpspec.1            the man page, made from `mcpspec --help-all` by help2man
#   lib/cmake/mcpspec/                  find_package(mcpspec): mcpspec::mcpspec and mcpspec_add_conformance_test
# The installed binary finds share/mcpspec next to its bin folder (harness/cli/paths.cpp).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

# `cmake --install` and cpack install what is built; they must not build the tests and reference
# systems first.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY TRUE)

if(TARGET mcpspec)
  install(TARGETS mcpspec EXPORT mcpspecTargets RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  # The reference systems' own targets need their binaries: an installed mcpspec has no default
  # targets file and says so when run without a target.
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/scenarios/ DESTINATION ${CMAKE_INSTALL_DATADIR}/mcpspec/scenarios
          PATTERN targets.json EXCLUDE)
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/harness/protocol/schemas/ DESTINATION ${CMAKE_INSTALL_DATADIR}/mcpspec/schemas/protocol)
  install(FILES ${PROJECT_SOURCE_DIR}/harness/scenario/schemas/scenario.schema.json
                ${PROJECT_SOURCE_DIR}/harness/scenario/schemas/fixture.schema.json
                ${PROJECT_SOURCE_DIR}/docs/report-schema.json
          DESTINATION ${CMAKE_INSTALL_DATADIR}/mcpspec/schemas)
  install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
  # The man page is the CLI's own help (mcpspec --help-all), laid out by help2man (Debian help2man).
  find_program(MCPSPEC_HELP2MAN help2man)
  if(MCPSPEC_HELP2MAN)
    add_custom_command(OUTPUT ${PROJECT_BINARY_DIR}/mcpspec.1
      COMMAND ${MCPSPEC_HELP2MAN} --no-info --help-option=--help-all --version-option=--version
              "--name=conformance test harness and fuzzer for the Model Context Protocol"
              --output=${PROJECT_BINARY_DIR}/mcpspec.1 $<TARGET_FILE:mcpspec>
      DEPENDS mcpspec VERBATIM
      COMMENT "Man page from mcpspec --help-all")
    add_custom_target(mcpspec-man ALL DEPENDS ${PROJECT_BINARY_DIR}/mcpspec.1)
    install(FILES ${PROJECT_BINARY_DIR}/mcpspec.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
  else()
    message(STATUS "help2man not found: no man page (Debian package help2man)")
  endif()
  install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR} PATTERN report-schema.json EXCLUDE)

  set(_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/mcpspec)
  install(EXPORT mcpspecTargets NAMESPACE mcpspec:: DESTINATION ${_cmake_dir})
  configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/mcpspecConfig.cmake.in
    ${PROJECT_BINARY_DIR}/mcpspecConfig.cmake INSTALL_DESTINATION ${_cmake_dir})
  write_basic_package_version_file(${PROJECT_BINARY_DIR}/mcpspecConfigVersion.cmake COMPATIBILITY SameMajorVersion)
  install(FILES ${PROJECT_BINARY_DIR}/mcpspecConfig.cmake ${PROJECT_BINARY_DIR}/mcpspecConfigVersion.cmake
                ${PROJECT_SOURCE_DIR}/cmake/mcpspecConformance.cmake
          DESTINATION ${_cmake_dir})
endif()

set(CPACK_PACKAGE_NAME mcpspec)
set(CPACK_PACKAGE_VENDOR "mcpspec")
set(CPACK_PACKAGE_CONTACT "mcpspec maintainers <mcpspec@invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Conformance test harness and fuzzer for the Model Context Protocol")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
# The run-time libraries (fmt, cpp-httplib, ...) come from dpkg-shlibdeps, so Depends matches the build.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
include(CPack)
