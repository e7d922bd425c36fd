#pragma once
/// @file
/// Typed exceptions. The library throws these; only the CLI maps them to exit
/// codes (preset_error -> 2, io_error and other runtime errors -> 1).

#include <stdexcept>
#include <string>
#include <vector>

namespace landform {

/// The one number formatter of every message (and of the docs): up to 15
/// significant digits, no trailing zeros ("0.25", "1e+308", "1000000").
std::string format_number(double v);

/// One problem found in a preset: where (a readable JSON path such as
/// `stages[1] (perturb).magnitude`) and what (value and rule).
struct preset_issue {
  std::string path;
  std::string message;
  [[nodiscard]] std::string to_string() const { return path.empty() ? message : path + ": " + message; }
};

/// A preset that cannot be run. Carries every problem found, not only the first.
class preset_error : public std::runtime_error {
 public:
  explicit preset_error(std::vector<preset_issue> issues);
  preset_error(std::string path, std::string message);
  [[nodiscard]] const std::vector<preset_issue>& issues() const { return m_issues; }
  /// The same issues with `where` + "." in front of each path: an error a
  /// stage or output found on the terrain, relative to its own parameters,
  /// placed in the preset (where = "outputs[6] (roads)").
  [[nodiscard]] preset_error within(const std::string& where) const;

 private:
  std::vector<preset_issue> m_issues;
};

/// A file could not be read or written. `what()` names the file and the reason.
class io_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The progress callback asked the run to stop.
class cancelled_error : public std::runtime_error {
 public:
  cancelled_error() : std::runtime_error("cancelled") {}
};

}  // namespace landform
