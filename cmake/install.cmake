# `cmake --install build [--prefix P]` installs the CLI (bin/landform), the
# static library, the public headers (with the generated version.hpp) and a
# CMake package, so that another project can use
#   find_package(landform REQUIRED)
#   target_link_libraries(app PRIVATE landform::landform)
# tests/install/ checks exactly that against a temporary prefix.
include(CMakePackageConfigHelpers)
set(LANDFORM_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/landform)

install(TARGETS landform landform_cli EXPORT landformTargets
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/landform DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.hpp")
install(FILES ${LANDFORM_GENERATED_DIR}/landform/version.hpp DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/landform)
install(EXPORT landformTargets NAMESPACE landform:: DESTINATION ${LANDFORM_CMAKE_DIR})

configure_package_config_file(cmake/landformConfig.cmake.in ${PROJECT_BINARY_DIR}/landformConfig.cmake
                              INSTALL_DESTINATION ${LANDFORM_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/landformConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/landformConfig.cmake ${PROJECT_BINARY_DIR}/landformConfigVersion.cmake
        DESTINATION ${LANDFORM_CMAKE_DIR})
