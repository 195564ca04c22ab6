// c10's helpers that LibTorch code (PyTorch's own C++ API tests among it) uses:
// c10::irange, TORCH_INTERNAL_ASSERT, TORCH_CHECK_EQ and friends, TORCH_WARN(_ONCE),
// c10::Error::what_without_backtrace, torch::enable_if_t. Only <torch/...> headers.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

namespace {

TEST(C10Macros, IrangeCountsLikeAForLoop) {
  std::vector<int64_t> seen;
  for (const auto i : c10::irange(int64_t{4})) seen.push_back(i);
  EXPECT_EQ(seen, (std::vector<int64_t>{0, 1, 2, 3}));
  seen.clear();
  for (const auto i : c10::irange(2, int64_t{5})) {
    static_assert(std::is_same_v<std::decay_t<decltype(i)>, int64_t>);  // the common type of the bounds
    seen.push_back(i);
  }
  EXPECT_EQ(seen, (std::vector<int64_t>{2, 3, 4}));
  int n = 0;
  for ([[maybe_unused]] const auto i : c10::irange(5, 3)) ++n;  // end before begin: empty
  for ([[maybe_unused]] const auto i : c10::irange(0)) ++n;
  EXPECT_EQ(n, 0);
  const torch::Tensor t = torch::arange(6).view({2, 3});
  int64_t sum = 0;
  for (const auto d : c10::irange(t.dim())) sum += t.size(d);
  EXPECT_EQ(sum, 5);
}

TEST(C10Macros, AssertsAndChecksThrowC10Errors) {
  try {
    TORCH_INTERNAL_ASSERT(1 + 1 == 3, "arithmetic is ", "broken");
    ADD_FAILURE() << "TORCH_INTERNAL_ASSERT did not throw";
  } catch (const c10::Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("1 + 1 == 3"), std::string::npos) << m;
    EXPECT_NE(m.find("arithmetic is broken"), std::string::npos) << m;
    EXPECT_STREQ(e.what_without_backtrace(), e.what());
  }
  TORCH_INTERNAL_ASSERT(true);
  TORCH_INTERNAL_ASSERT_DEBUG_ONLY(2 > 1, "never");
  TORCH_CHECK_EQ(2, 2);
  TORCH_CHECK_LT(1, 2);
  try {
    TORCH_CHECK_GE(1, 2);
    ADD_FAILURE() << "TORCH_CHECK_GE did not throw";
  } catch (const c10::Error& e) {
    EXPECT_NE(std::string(e.what_without_backtrace()).find("1 >= 2"), std::string::npos) << e.what();
  }
  EXPECT_THROW(TORCH_CHECK_NE(3, 3), c10::Error);
  EXPECT_THROW(TORCH_CHECK_GT(3, 3), c10::Error);
  EXPECT_THROW(TORCH_CHECK_LE(4, 3), c10::Error);
}

void warn_once_here(int i) { TORCH_WARN_ONCE("first call was ", i); }

TEST(C10Macros, WarnPrintsAndWarnOncePrintsOncePerCallSite) {
  ::testing::internal::CaptureStderr();
  TORCH_WARN("value ", 42, " is odd");
  for (int i = 0; i < 3; ++i) warn_once_here(i);
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("value 42 is odd"), std::string::npos) << err;
  EXPECT_NE(err.find("first call was 0"), std::string::npos) << err;
  EXPECT_EQ(err.find("first call was 1"), std::string::npos) << err;
}

template <typename T, typename = torch::enable_if_t<std::is_integral_v<T>>>
constexpr bool integral_only(T) {
  return true;
}

TEST(C10Macros, EnableIfInTorch) { EXPECT_TRUE(integral_only(3)); }

}  // namespace
