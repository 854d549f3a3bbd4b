# Writes OUTPUT, a ctest script with one test per GoogleTest suite of TEST_EXECUTABLE (run with
# --gtest_filter=Suite.*; a parameterised suite's tests one by one), from the executable's
# --gtest_list_tests. Run after every link of the test binary (tests/CMakeLists.txt).
#
# Why suites and not single tests: each ctest test is a process, and a sanitizer build's process
# pays about 0.6 s of CPU to start (AddressSanitizer registering the globals of a 280 MB binary,
# faulting in its shadow memory, scanning for leaks at exit), while 764 of the 946 tests ran in
# less than a second including that start (docs/performance.md, "Time of the test suite").
#
# Variables: TEST_EXECUTABLE, WORKING_DIRECTORY, OUTPUT.
execute_process(
  COMMAND "${TEST_EXECUTABLE}" --gtest_list_tests
  WORKING_DIRECTORY "${WORKING_DIRECTORY}"
  OUTPUT_VARIABLE listing
  RESULT_VARIABLE status
  TIMEOUT 120)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${TEST_EXECUTABLE} --gtest_list_tests failed (${status}):\n${listing}")
endif()

# A suite's line is "Suite." (or "Prefix/Suite." for a parameterised one, perhaps followed by
# "  # TypeParam = ..."); its tests follow, indented. A parameterised suite runs a test per
# parameter (EveryGame/WholeGames: one per game, the longest suite under the sanitizers), so its
# tests are registered one by one: run as one process it was the last to start and the last to end.
string(REPLACE "\n" ";" lines "${listing}")
set(script "# Written by tests/register_suites.cmake from ${TEST_EXECUTABLE} --gtest_list_tests.\n")
set(count 0)
set(suite "")
foreach(line IN LISTS lines)
  set(name "")
  if(line MATCHES "^([^ #][^ ]*)\\.( .*)?$")
    set(suite "${CMAKE_MATCH_1}")
    if(NOT suite MATCHES "/")
      set(name "${suite}")
      set(filter "${suite}.*")
    endif()
  elseif(suite MATCHES "/" AND line MATCHES "^  ([^ ]+)")
    set(name "${suite}.${CMAKE_MATCH_1}")
    set(filter "${name}")
  endif()
  if(NOT name STREQUAL "")
    string(APPEND script
           "add_test([==[${name}]==] [==[${TEST_EXECUTABLE}]==] [==[--gtest_filter=${filter}]==])\n"
           "set_tests_properties([==[${name}]==] PROPERTIES WORKING_DIRECTORY [==[${WORKING_DIRECTORY}]==])\n")
    math(EXPR count "${count} + 1")
  endif()
endforeach()
if(count EQUAL 0)
  message(FATAL_ERROR "${TEST_EXECUTABLE} --gtest_list_tests listed no suite:\n${listing}")
endif()
file(WRITE "${OUTPUT}" "${script}")
