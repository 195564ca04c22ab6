#pragma once
// LibTorch-compatible spelling: `torch::` (and `at::`, `c10::`) name Ember.
#include <optional>

#include "ember/ember.h"

// LibTorch's torch/types.h brings c10::optional into torch:: (Dataset::size() returns
// torch::optional<size_t>); Ember's optional is std::optional, so c10::optional works too.
namespace ember {
using std::nullopt;
using std::optional;
}  // namespace ember

namespace torch = ember;
namespace at = ember;
namespace c10 = ember;
