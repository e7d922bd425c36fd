#pragma once
// The reference oracles live in ../shared/reference beside the repository
// (read-only, not part of it). When LANDFORM_REQUIRE_REFERENCE=1 (set by
// .ci/run) or CI is set in the environment they must be there and a missing
// file fails the test; elsewhere a test that needs them warns and returns, so
// a clone on its own still runs the rest of the suite. LANDFORM_SHARED_DIR in
// the environment overrides the shared folder's path (.ci/run points it at a
// missing folder to check that the tests then fail).

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace landform_test {

inline std::string shared_dir() {
  const char* dir = std::getenv("LANDFORM_SHARED_DIR");
  return dir != nullptr && *dir != '\0' ? std::string(dir) : std::string(LANDFORM_SHARED_DIR);
}

inline std::string reference_dir() {
  return shared_dir() + "/reference";
}

inline bool env_flag(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' && std::string(value) != "0" && std::string(value) != "false";
}

inline bool reference_required() {
  return env_flag("LANDFORM_REQUIRE_REFERENCE") || env_flag("CI");
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
