# Run by ctest (test "install"): installs the build into a fresh prefix, then
# configures, builds and runs tests/install/consumer against it with
# find_package(landform), and runs the installed CLI.
#   cmake -DBUILD_DIR=... -DWORK_DIR=... -DCONSUMER_DIR=... -DCXX=... -DGENERATOR=...
#         [-DCXX_FLAGS=...] [-DLAUNCHER=...] -P check_install.cmake
foreach(var BUILD_DIR WORK_DIR CONSUMER_DIR CXX GENERATOR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_install: ${var} not set")
  endif()
endforeach()

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "check_install: ${what} failed (${rc}):\n${out}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

set(prefix ${WORK_DIR}/prefix)
file(REMOVE_RECURSE ${WORK_DIR})
run("cmake --install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})

include(GNUInstallDirs)
foreach(file ${CMAKE_INSTALL_BINDIR}/landform ${CMAKE_INSTALL_INCLUDEDIR}/landform/version.hpp
        ${CMAKE_INSTALL_INCLUDEDIR}/landform/pipeline/pipeline.hpp
        ${CMAKE_INSTALL_LIBDIR}/cmake/landform/landformConfig.cmake)
  if(NOT EXISTS ${prefix}/${file})
    message(FATAL_ERROR "check_install: ${file} not installed")
  endif()
endforeach()

set(configure_args -S ${CONSUMER_DIR} -B ${WORK_DIR}/consumer -G ${GENERATOR} -DCMAKE_BUILD_TYPE=Release
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_FIND_PACKAGE_PREFER_CONFIG=ON)
if(CXX_FLAGS)
  list(APPEND configure_args "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}" "-DCMAKE_EXE_LINKER_FLAGS=${CXX_FLAGS}")
endif()
if(LAUNCHER)
  list(APPEND configure_args -DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER})
endif()
run("consumer configure" ${CMAKE_COMMAND} ${configure_args})
string(FIND "${last_output}" "from ${prefix}/" at)
if(at EQUAL -1)
  message(FATAL_ERROR "check_install: landform was not found in ${prefix}:\n${last_output}")
endif()
run("consumer build" ${CMAKE_COMMAND} --build ${WORK_DIR}/consumer)
run("consumer" ${WORK_DIR}/consumer/consumer)
message(STATUS "${last_output}")
run("installed CLI" ${prefix}/${CMAKE_INSTALL_BINDIR}/landform stages)
message(STATUS "check_install: OK")
