# Writes OUTPUT, a ctest script with one test per GoogleTest suite of TEST_EXECUTABLE (run with
# --gtest_filter=Suite.*), from the executable's --gtest_list_tests. Run after every link of the test
# binary (tests/CMakeLists.txt).
#
# Why suites and not single tests: each ctest test is a process, and a sanitizer build's process
# pays about 0.4 s of CPU to start (AddressSanitizer registering the globals of a 280 MB binary and
# faulting in its shadow memory), while 764 of the 946 tests ran in less than a second including that
# start (docs/performance.md, "Time of the test suite").
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
# "  # TypeParam = ..."); its tests follow, indented.
string(REPLACE "\n" ";" lines "${listing}")
set(script "# Written by tests/register_suites.cmake from ${TEST_EXECUTABLE} --gtest_list_tests.\n")
set(count 0)
foreach(line IN LISTS lines)
  if(line MATCHES "^([^ #][^ ]*)\\.( .*)?$")
    set(suite "${CMAKE_MATCH_1}")
    string(APPEND script
           "add_test([==[${suite}]==] [==[${TEST_EXECUTABLE}]==] [==[--gtest_filter=${suite}.*]==])\n"
           "set_tests_properties([==[${suite}]==] PROPERTIES WORKING_DIRECTORY [==[${WORKING_DIRECTORY}]==])\n")
    math(EXPR count "${count} + 1")
  endif()
endforeach()
if(count EQUAL 0)
  message(FATAL_ERROR "${TEST_EXECUTABLE} --gtest_list_tests listed no suite:\n${listing}")
endif()
file(WRITE "${OUTPUT}" "${script}")
