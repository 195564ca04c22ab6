#pragma once
// print_sizes: how LibTorch's pretty_print shows an ExpandingArray — a single
// value bare (`kernel_size=3`), several as a list (`kernel_size=[3, 3]`).
#include <ostream>

#include "ember/core/expanding_array.h"

namespace torch::nn::detail {

template <size_t D>
struct PrintSizes {
  const ExpandingArray<D>& values;
};
template <size_t D>
std::ostream& operator<<(std::ostream& os, const PrintSizes<D>& p) {
  if constexpr (D == 1) return os << (*p.values)[0];
  return os << p.values;
}
template <size_t D>
PrintSizes<D> print_sizes(const ExpandingArray<D>& values) {
  return {values};
}

}  // namespace torch::nn::detail
