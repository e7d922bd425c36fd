#include "landform/core/error.hpp"

#include <sstream>

namespace landform {

std::string format_number(double v) {
  std::ostringstream s;
  s.precision(15);
  s << v;
  return s.str();
}

namespace {
std::string join_issues(const std::vector<preset_issue>& issues) {
  std::string text;
  for (const auto& issue : issues) {
    if (!text.empty()) text += '\n';
    text += issue.to_string();
  }
  return text;
}
}  // namespace

preset_error::preset_error(std::vector<preset_issue> issues)
    : std::runtime_error(join_issues(issues)), m_issues(std::move(issues)) {}

preset_error::preset_error(std::string path, std::string message)
    : preset_error(std::vector<preset_issue>{{std::move(path), std::move(message)}}) {}

preset_error preset_error::within(const std::string& where) const {
  std::vector<preset_issue> issues = m_issues;
  if (where.empty()) return preset_error(std::move(issues));
  for (auto& issue : issues) issue.path = issue.path.empty() ? where : where + "." + issue.path;
  return preset_error(std::move(issues));
}

}  // namespace landform
