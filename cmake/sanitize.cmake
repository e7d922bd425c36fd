# LANDFORM_SANITIZE=ON builds every target (library, CLI, tests, benchmarks)
# with AddressSanitizer and UndefinedBehaviorSanitizer. Any UB report aborts
# (no recovery), so a test that triggers one fails instead of printing and
# passing. .ci/run runs the suite this way in build-asan.
set(LANDFORM_SANITIZE_FLAGS "")
if(LANDFORM_SANITIZE)
  set(LANDFORM_SANITIZE_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
  add_compile_options(${LANDFORM_SANITIZE_FLAGS})
  add_link_options(${LANDFORM_SANITIZE_FLAGS})
  # GCC 12 spends 32 minutes on the legacy noise's per-target Highway kernels
  # with both sanitizers on (ASan alone 9.5 min, UBSan alone 1.4 min), nearly
  # all of it in ASan's use-after-scope poisoning of the many vector locals;
  # without that one check the file takes 1.5 min. The Highway files keep
  # every other ASan and UBSan check (heap, stack and global bounds included).
  set(LANDFORM_HIGHWAY_SOURCES
      src/noise/open_simplex_legacy_simd.cpp src/noise/noise_simd.cpp src/noise/value_simd.cpp
      src/outputs/normal_row.cpp src/stages/inplace_scan_simd.cpp)
  list(TRANSFORM LANDFORM_HIGHWAY_SOURCES PREPEND ${PROJECT_SOURCE_DIR}/)
  set_source_files_properties(${LANDFORM_HIGHWAY_SOURCES} PROPERTIES COMPILE_OPTIONS
                              -fno-sanitize-address-use-after-scope)
endif()
