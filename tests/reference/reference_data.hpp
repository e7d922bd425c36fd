#pragma once
// The reference oracles live in ../shared/reference beside the repository
// (read-only, not part of it). In CI (CI set in the environment) they must be
// there and a missing file fails the test; elsewhere a test that needs them
// warns and returns, so a clone on its own still runs the rest of the suite.

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace landform_test {

inline std::string reference_dir() {
  return std::string(LANDFORM_SHARED_DIR) + "/reference";
}

inline bool reference_required() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && *ci != '\0' && std::string(ci) != "0" && std::string(ci) != "false";
}

}  // namespace landform_test

/// Returns from the test (with a warning) when the reference data is absent
/// outside CI; in CI, fails.
#define LANDFORM_NEED_REFERENCE_DATA()                                                                             \
  do {                                                                                                             \
    if (!std::filesystem::is_directory(landform_test::reference_dir())) {                                          \
      if (landform_test::reference_required()) FAIL("reference data missing: " << landform_test::reference_dir()); \
      WARN("reference data not found at " << landform_test::reference_dir() << "; test skipped");                  \
      return;                                                                                                      \
    }                                                                                                              \
  } while (false)
