# What keeps a fresh build short (the README's quick start: under 2 minutes on
# 2 cores). Measured on GCC 12, -O3, from a clean tree: 485 s of CPU with
# precompiled headers, 207 s in unity batches, and less again with the cold
# code at -O1.

# Unity (jumbo) builds: each batch of sources is compiled as one translation
# unit, so nlohmann/json, the schema templates and their inline functions are
# parsed and code-generated once per batch instead of once per file (a 40-line
# stage took 8 s, 7 of them in the headers). Off for clang-tidy's
# configuration (scripts/tidy.sh), which must see each file on its own, and
# for editing sessions that rebuild one file at a time.
option(LANDFORM_UNITY "Compile the library and the CLI in unity batches" ON)

# landform_unity(target batch_size [sources never batched ...])
function(landform_unity target batch_size)
  if(NOT LANDFORM_UNITY)
    return()
  endif()
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${batch_size})
  if(ARGN)
    set_source_files_properties(${ARGN} TARGET_DIRECTORY ${target} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
  endif()
endfunction()

# Cold code: preset validation, the schema, the manifest and the CLI run once
# per build and touch no cell; 70% of their compile time at -O3 is the
# optimiser working on nlohmann/json instantiations. -O1 in optimised builds
# (the last -O on GCC's and clang's command line wins); debug builds keep -O0.
function(landform_cold_code target)
  target_compile_options(${target} PRIVATE $<$<CONFIG:Release,RelWithDebInfo,MinSizeRel>:-O1>)
endfunction()
