# Precompiled headers for the heaviest third-party headers (nlohmann/json,
# CLI11, Catch2) and the schema every stage and output instantiates: about a
# third of each translation unit's compile time on GCC 12 is parsing them.
# Off for clang-tidy's configuration (scripts/tidy.sh), which cannot read
# GCC's .gch files and should see each file's own includes anyway.
option(LANDFORM_PCH "Precompile the heavy common headers" ON)

function(landform_precompile target)
  if(NOT LANDFORM_PCH)
    return()
  endif()
  target_precompile_headers(${target} PRIVATE ${ARGN})
endfunction()
