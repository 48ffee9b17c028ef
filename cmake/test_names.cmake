# catch_discover_tests hands each test name to CTest as a list item, and CMake lists split at ';':
# a TEST_CASE named "a; b" became two CTest entries whose filters match no test, so the case never
# ran while CTest counted them as passed. Refuse such names when the build is configured.
function(mcpspec_check_test_names)
  file(GLOB_RECURSE _sources CONFIGURE_DEPENDS
    ${PROJECT_SOURCE_DIR}/tests/*.cpp ${PROJECT_SOURCE_DIR}/reference-servers/*.cpp)
  list(FILTER _sources EXCLUDE REGEX "/node_modules/")
  set(_bad "")
  foreach(_f ${_sources})
    # Each line holding TEST_CASE("...;...") (the pattern stops at the name's closing quote).
    file(STRINGS ${_f} _lines REGEX "TEST_CASE\\(\"[^\"]*;")
    foreach(_l ${_lines})
      file(RELATIVE_PATH _r ${PROJECT_SOURCE_DIR} ${_f})
      list(APPEND _bad "${_r}")
    endforeach()
  endforeach()
  if(_bad)
    list(REMOVE_DUPLICATES _bad)
    string(REPLACE ";" ", " _bad "${_bad}")
    message(FATAL_ERROR "A Catch2 TEST_CASE name holds ';', which CTest would split into tests that never run: "
                        "${_bad}. Use ',' instead.")
  endif()
endfunction()
