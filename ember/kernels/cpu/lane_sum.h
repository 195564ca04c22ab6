#pragma once
// Note [Row sums in lanes]
// The sum over j < n of term(j), in Acc, kept in eight interleaved partial sums that are
// added pairwise at the end. A single `sum += ...` is one serial chain of dependent adds,
// which the compiler may not reorder; eight independent chains are vectorised and
// overlap. layer_norm's row statistics (n = 256 in W10) were ~5 % of the transformer
// layer's forward as one chain; softmax's backward row dot product is the same loop. The
// order of additions depends only on n.
#include <cstdint>

#include "ember/core/namespace.h"

namespace torch::kernels {

template <typename Acc, typename F>
inline Acc lane_sum(int64_t n, F term) {
  constexpr int64_t kLanes = 8;
  Acc acc[kLanes] = {};
  int64_t j = 0;
  for (; j + kLanes <= n; j += kLanes)
    for (int64_t l = 0; l < kLanes; ++l) acc[l] += term(j + l);
  Acc tail = 0;
  for (; j < n; ++j) tail += term(j);
  return ((acc[0] + acc[1]) + (acc[2] + acc[3])) + ((acc[4] + acc[5]) + (acc[6] + acc[7])) + tail;
}

}  // namespace torch::kernels
