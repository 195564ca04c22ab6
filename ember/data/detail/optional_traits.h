#pragma once
// Type traits the dataset templates share: a batch type wrapped in
// std::optional marks a stateful dataset (it says "exhausted" itself).
#include <optional>
#include <type_traits>

#include "ember/core/namespace.h"

namespace torch::data::detail {

template <typename T>
struct is_optional : std::false_type {};
template <typename T>
struct is_optional<std::optional<T>> : std::true_type {};

template <bool Cond, typename T>
using optional_if_t = std::conditional_t<Cond, std::optional<T>, T>;

}  // namespace torch::data::detail
