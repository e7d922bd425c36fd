# Warnings and floating-point rules shared by every target.
function(landform_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                         -Wno-sign-conversion)
  if(LANDFORM_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  # No fused multiply-add contraction and no fast-math anywhere: the legacy
  # OpenSimplex and the tutorial stages are bit-exact ports of Java double
  # arithmetic, and determinism across machines needs the same rounding.
  target_compile_options(${target} PRIVATE -ffp-contract=off -fno-fast-math)
endfunction()
