#pragma once
// LibTorch compatibility header (target Ember::torch_compat): <torch/csrc/utils/variadic.h>.
#include <type_traits>
#include <utility>

#include <torch/ember_prelude.h>

namespace torch {
// True when every (any) of the booleans is (torch::all_of, torch::any_of).
template <bool... B>
struct all_of : std::bool_constant<(B && ...)> {};
template <bool... B>
struct any_of : std::bool_constant<(B || ...)> {};
// Calls `function` on each argument in order (torch::apply).
template <typename Function, typename... Ts>
void apply(Function function, Ts&&... ts) {
  (function(std::forward<Ts>(ts)), ...);
}
}  // namespace torch
