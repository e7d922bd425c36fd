# Every dependency is a Debian package (see scripts/install-deps.sh); nothing
# is downloaded or vendored.
find_package(PkgConfig REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
find_package(CLI11 2.0 REQUIRED)
find_package(ZLIB REQUIRED)
find_package(OpenSSL REQUIRED COMPONENTS Crypto)
find_package(OpenMP REQUIRED COMPONENTS CXX)
pkg_check_modules(STB REQUIRED IMPORTED_TARGET stb)
# ISA-L's igzip (libisal-dev): the `fast` PNG compression's deflate.
pkg_check_modules(ISAL REQUIRED IMPORTED_TARGET libisal)
# exr / exr16 (OpenEXR 3, Debian 12: 3.1.5) and tiff32 / tiff16 (libtiff 4).
find_package(OpenEXR 3 CONFIG REQUIRED)
find_package(TIFF 4 REQUIRED)
if(LANDFORM_BUILD_TESTS)
  find_package(Catch2 2 REQUIRED)
  # libpng: the tests' independent PNG decoder (the library writes PNGs with zlib).
  find_package(PNG REQUIRED)
endif()
if(LANDFORM_BUILD_BENCH)
  find_package(benchmark QUIET)
endif()
# Highway (libhwy-dev): SIMD kernels compiled for several targets, chosen at
# run time (HWY_DYNAMIC_DISPATCH).
pkg_check_modules(HWY REQUIRED IMPORTED_TARGET libhwy)
