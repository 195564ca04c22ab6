#pragma once
// LibTorch compatibility header (target Ember::torch_compat): <torch/types.h> is Ember.
#include <ember/torch.h>

#include <optional>

// LibTorch's torch/types.h brings c10::optional into torch:: (torch::optional<size_t> in
// Dataset::size()); Ember's optional is std::optional.
namespace ember {
using std::nullopt;
using std::optional;
}  // namespace ember
