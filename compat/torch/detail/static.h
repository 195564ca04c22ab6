#pragma once
// LibTorch compatibility header (target Ember::torch_compat): <torch/detail/static.h>, the
// traits LibTorch's module containers are written with.
#include <type_traits>
#include <utility>

#include <torch/csrc/utils/variadic.h>
#include <torch/ember_prelude.h>

namespace torch::detail {
// Whether T (after removing references and cv) is an nn::Module.
template <typename T>
using is_module = std::is_base_of<torch::nn::Module, std::decay_t<T>>;
template <typename M, typename T = void>
using enable_if_module_t = std::enable_if_t<is_module<M>::value, T>;

// `::type`: what M::forward returns when called with Args; void when M has no forward().
template <typename M, typename... Args>
struct return_type_of_forward {
  using type = void;
};
template <typename M, typename... Args>
requires requires { &std::decay_t<M>::forward; }
struct return_type_of_forward<M, Args...> {
  using type = decltype(std::declval<M>().forward(std::declval<Args>()...));
};
template <typename M, typename... Args>
using return_type_of_forward_t = typename return_type_of_forward<M, Args...>::type;

// True when no argument type is an lvalue reference (AnyModule refuses those for forward).
template <typename... Ts>
constexpr bool check_not_lvalue_references() {
  return (!std::is_lvalue_reference_v<Ts> && ...);
}
}  // namespace torch::detail
