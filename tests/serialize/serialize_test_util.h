#pragma once
// Shared helpers for the serialize tests: a scratch directory per test.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace torch::testing {

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

// A pickle of {K: {K: {... {K: None}}}}, `depth` dicts deep, the key K stored
// once and then fetched from the memo: a small file whose dotted names grow as
// depth * |K| per level (the name bomb of the pickle reader's tests).
inline std::string nested_dicts_sharing_one_key(const std::string& key, int depth) {
  std::string p = "\x80\x02";
  for (int d = 0; d < depth; ++d) {
    p += '}';
    if (d == 0) {
      const uint32_t n = static_cast<uint32_t>(key.size());
      p += 'X';
      p.append(reinterpret_cast<const char*>(&n), 4);
      p += key;
      p += std::string_view("q\x00", 2);
    } else {
      p += std::string_view("h\x00", 2);
    }
  }
  return p + 'N' + std::string(static_cast<size_t>(depth), 's') + '.';
}

}  // namespace torch::testing
