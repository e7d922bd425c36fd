# Unity (jumbo) builds: each batch of sources is compiled as one translation
# unit, so nlohmann/json, the schema templates and their inline functions are
# parsed and code-generated once per batch instead of once per file. On GCC 12
# that is most of a landform file's compile time (a 40-line stage took 8 s,
# 7 of them in the headers). Off for clang-tidy's configuration
# (scripts/tidy.sh), which must see each file on its own, and for editing
# sessions that rebuild one file at a time.
option(LANDFORM_UNITY "Compile the library and the CLI in unity batches" ON)

# landform_unity(target batch_size [sources excluded ...])
function(landform_unity target batch_size)
  if(NOT LANDFORM_UNITY)
    return()
  endif()
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE ${batch_size})
  if(ARGN)
    set_source_files_properties(${ARGN} TARGET_DIRECTORY ${target} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
  endif()
endfunction()
