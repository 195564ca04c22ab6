#include "ember/kernels/cpu/reduce.h"

#include <numeric>

namespace torch::kernels {

ReducePlan make_reduce_plan(const Tensor& in, uint64_t mask, bool keep_order) {
  ReducePlan p;
  const int64_t nd = in.dim();
  IntArrayRef sizes = in.sizes();
  IntArrayRef strides = in.strides();

  // Kept dims in logical order; merge neighbours that are contiguous with each other.
  for (int64_t d = 0; d < nd; ++d) {
    if (mask & (uint64_t(1) << d)) continue;
    p.num_outputs *= sizes[d];
    if (sizes[d] == 1) continue;
    if (!p.kept_sizes.empty() && p.kept_strides.back() == strides[d] * sizes[d]) {
      p.kept_sizes.back() *= sizes[d];
      p.kept_strides.back() = strides[d];
      continue;
    }
    p.kept_sizes.push_back(sizes[d]);
    p.kept_strides.push_back(strides[d]);
  }

  // Reduced dims, innermost first: by stride unless indices must follow logical order.
  DimVector red;
  for (int64_t d = nd - 1; d >= 0; --d) {
    if (!(mask & (uint64_t(1) << d))) continue;
    p.reduce_numel *= sizes[d];
    if (sizes[d] != 1) red.push_back(d);
  }
  if (!keep_order)
    std::stable_sort(red.begin(), red.end(),
                     [&](int64_t a, int64_t b) { return std::abs(strides[a]) < std::abs(strides[b]); });
  for (int64_t d : red) {
    if (!p.red_sizes.empty() && strides[d] == p.red_strides.back() * p.red_sizes.back()) {
      p.red_sizes.back() *= sizes[d];
      continue;
    }
    p.red_sizes.push_back(sizes[d]);
    p.red_strides.push_back(strides[d]);
  }
  if (p.red_sizes.empty()) {
    p.red_sizes.push_back(1);
    p.red_strides.push_back(0);
  }
  return p;
}

}  // namespace torch::kernels
