# LANDFORM_SANITIZE=ON builds every target (library, CLI, tests, benchmarks)
# with AddressSanitizer and UndefinedBehaviorSanitizer. Any UB report aborts
# (no recovery), so a test that triggers one fails instead of printing and
# passing. .ci/run runs the suite this way in build-asan.
set(LANDFORM_SANITIZE_FLAGS "")
if(LANDFORM_SANITIZE)
  set(LANDFORM_SANITIZE_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
  add_compile_options(${LANDFORM_SANITIZE_FLAGS})
  add_link_options(${LANDFORM_SANITIZE_FLAGS})
endif()
