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
  # libFuzzer's convention: checksum checks (the PNG chunk CRCs) step aside.
  add_compile_definitions(FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION)
  add_link_options(-fsanitize=address,undefined)
  # clang-14 spends over an hour instrumenting the legacy noise's per-target
  # SIMD kernels for UBSan (ASan alone: 3.5 min), so that one file gets
  # coverage only (and no precompiled header, built with the sanitizers).
  # The GCC sanitizer build (LANDFORM_SANITIZE) still checks it, and its test
  # compares it with the scalar port bit for bit.
  set_source_files_properties(${PROJECT_SOURCE_DIR}/src/noise/open_simplex_legacy_simd.cpp
                              PROPERTIES COMPILE_OPTIONS "-fno-sanitize=address,undefined" SKIP_PRECOMPILE_HEADERS ON)
endif()
