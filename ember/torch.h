#pragma once
// LibTorch-compatible spelling: `torch::` (and `at::`, `c10::`) name Ember.
#include <optional>
#include <type_traits>

#include "ember/core/irange.h"
#include "ember/ember.h"

// LibTorch's torch/types.h brings c10::optional into torch:: (Dataset::size() returns
// torch::optional<size_t>); Ember's optional is std::optional, so c10::optional works too.
namespace torch {
using std::enable_if_t;  // torch::enable_if_t, from LibTorch's headers
using std::nullopt;
using std::optional;
namespace detail {
void warn(const char* file, int line, const std::string& msg);  // core/error.cpp
}  // namespace detail
}  // namespace torch

// c10's assertion and warning macros, as LibTorch code uses them. Ember's
// internal asserts throw (never abort), like c10's.
#define TORCH_INTERNAL_ASSERT(cond, ...) EMBER_INTERNAL_ASSERT(cond, ##__VA_ARGS__)
#define TORCH_INTERNAL_ASSERT_DEBUG_ONLY(cond, ...) EMBER_INTERNAL_ASSERT(cond, ##__VA_ARGS__)
#define TORCH_CHECK_EQ(a, b) TORCH_CHECK((a) == (b), "Check failed: " #a " == " #b)
#define TORCH_CHECK_NE(a, b) TORCH_CHECK((a) != (b), "Check failed: " #a " != " #b)
#define TORCH_CHECK_LE(a, b) TORCH_CHECK((a) <= (b), "Check failed: " #a " <= " #b)
#define TORCH_CHECK_LT(a, b) TORCH_CHECK((a) < (b), "Check failed: " #a " < " #b)
#define TORCH_CHECK_GE(a, b) TORCH_CHECK((a) >= (b), "Check failed: " #a " >= " #b)
#define TORCH_CHECK_GT(a, b) TORCH_CHECK((a) > (b), "Check failed: " #a " > " #b)
// A warning on stderr; _ONCE prints at most once per call site (a thread-safe static).
#define TORCH_WARN(...) ::ember::detail::warn(__FILE__, __LINE__, ::ember::str(__VA_ARGS__))
#define TORCH_WARN_ONCE(...)                                                                 \
  do {                                                                                       \
    [[maybe_unused]] static const bool ember_warned_once_ = (TORCH_WARN(__VA_ARGS__), true); \
  } while (0)

// `torch` is Ember's own namespace (Note [One namespace, two spellings]); `at` and `c10` are
// real namespaces that see all of it, so LibTorch code may reopen them too.
namespace at {
using namespace ::torch;
}  // namespace at
namespace c10 {
using namespace ::torch;
}  // namespace c10
