# LANDFORM_FUZZ=ON (clang only) builds the library with libFuzzer coverage and
# AddressSanitizer + UndefinedBehaviorSanitizer, and the fuzz targets of
# tests/fuzz. scripts/fuzz.sh configures, builds and runs them.
option(LANDFORM_FUZZ "Build the libFuzzer targets of tests/fuzz (clang)" OFF)
if(LANDFORM_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "LANDFORM_FUZZ needs clang (e.g. CXX=clang++-14)")
  endif()
  set(LANDFORM_FUZZ_FLAGS -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
                          -fno-omit-frame-pointer)
  add_compile_options(${LANDFORM_FUZZ_FLAGS})
  add_link_options(-fsanitize=address,undefined)
endif()
