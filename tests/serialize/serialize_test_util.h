#pragma once
// Shared helpers for the serialize tests: a scratch directory per test.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace ember::testing {

// A fresh directory removed at the end of the test.
class ScratchDir {
 public:
  ScratchDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = std::filesystem::path(::testing::TempDir()) /
            (std::string("ember_serialize_") + info->test_suite_name() + "_" + info->name());
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ~ScratchDir() { std::filesystem::remove_all(path_); }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  size_t num_entries() const {
    size_t n = 0;
    for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(path_)) ++n;
    return n;
  }

 private:
  std::filesystem::path path_;
};

inline std::string pt_file(const std::string& name) { return std::string(EMBER_GOLDEN_DIR) + "/pt/" + name; }

}  // namespace ember::testing
