# The required libraries {fmt}, nlohmann-json and GoogleTest, found installed or, on a
# machine without package access (the GPU machine), in a folder that scripts/carry-deps
# filled on a machine that has them: headers for {fmt} (used header-only) and
# nlohmann-json, the sources of GoogleTest.

set(FUSESCOPE_CARRIED_DEPS "${PROJECT_SOURCE_DIR}/third_party" CACHE PATH
  "Where scripts/carry-deps put {fmt}, nlohmann-json and GoogleTest for machines without them")

# An installed package, else an imported target for its headers carried along in
# ${FUSESCOPE_CARRIED_DEPS}/<folder>/include (`marker` is a header that must be there).
function(fusescope_header_dependency package version folder marker target)
  find_package(${package} ${version} QUIET)
  if(${package}_FOUND)
    return()
  endif()
  set(include "${FUSESCOPE_CARRIED_DEPS}/${folder}/include")
  if(NOT EXISTS "${include}/${marker}")
    message(FATAL_ERROR "${package} not found: install it (scripts/install-deps) or run scripts/carry-deps "
      "on a machine that has it and bring ${FUSESCOPE_CARRIED_DEPS} along")
  endif()
  add_library(${target} INTERFACE IMPORTED GLOBAL)
  target_include_directories(${target} SYSTEM INTERFACE "${include}")
  set(${package}_CARRIED ON PARENT_SCOPE)
  message(STATUS "${package}: carried along in ${FUSESCOPE_CARRIED_DEPS}")
endfunction()

fusescope_header_dependency(nlohmann_json 3.10 nlohmann_json nlohmann/json.hpp nlohmann_json::nlohmann_json)
fusescope_header_dependency(fmt "" fmt fmt/format-inl.h fmt::fmt)
if(fmt_CARRIED)
  target_compile_definitions(fmt::fmt INTERFACE FMT_HEADER_ONLY)  # no compiled library carried
endif()

# GoogleTest is looked for by tests/CMakeLists.txt only when the tests are built.
macro(fusescope_find_gtest)
  find_package(GTest QUIET)
  if(NOT GTest_FOUND)
    if(NOT EXISTS "${FUSESCOPE_CARRIED_DEPS}/googletest/CMakeLists.txt")
      message(FATAL_ERROR "GoogleTest not found: install it (scripts/install-deps), run scripts/carry-deps on a "
        "machine that has it and bring ${FUSESCOPE_CARRIED_DEPS} along, or configure with -DFUSESCOPE_BUILD_TESTS=OFF")
    endif()
    set(INSTALL_GTEST OFF CACHE BOOL "" FORCE)
    set(BUILD_GMOCK OFF CACHE BOOL "" FORCE)
    add_subdirectory("${FUSESCOPE_CARRIED_DEPS}/googletest" "${CMAKE_BINARY_DIR}/googletest" EXCLUDE_FROM_ALL)
    message(STATUS "GoogleTest: built from the sources carried along in ${FUSESCOPE_CARRIED_DEPS}")
  endif()
endmacro()
