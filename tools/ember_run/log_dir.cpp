#include "log_dir.h"

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <system_error>
#include <vector>

namespace ember_run {
namespace {

std::string make_temp_dir(const std::string& pattern_prefix) {
  std::string pattern = pattern_prefix + "XXXXXX";
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  if (::mkdtemp(buf.data()) == nullptr)
    throw std::system_error(errno, std::generic_category(), "ember-run: cannot create a directory " + pattern);
  return std::string(buf.data());
}

}  // namespace

RunLogDir::RunLogDir(const std::string& base_or_empty, const std::string& run_id) {
  std::string base = base_or_empty;
  if (base.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    base = make_temp_dir(std::string(tmp && *tmp ? tmp : "/tmp") + "/torchelastic_");
  }
  std::error_code ec;
  std::filesystem::create_directories(base, ec);
  if (ec) throw std::system_error(ec, "ember-run: --log-dir " + base);
  run_dir_ = make_temp_dir(base + "/" + run_id + "_");
}

std::string RunLogDir::make_attempt(int restart_count, int local_world_size) const {
  std::string attempt = run_dir_ + "/attempt_" + std::to_string(restart_count);
  std::error_code ec;
  std::filesystem::remove_all(attempt, ec);
  for (int r = 0; r < local_world_size; ++r) {
    std::filesystem::create_directories(attempt + "/" + std::to_string(r), ec);
    if (ec) throw std::system_error(ec, "ember-run: cannot create " + attempt);
  }
  return attempt;
}

}  // namespace ember_run
