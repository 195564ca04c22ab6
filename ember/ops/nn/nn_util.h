#pragma once
// Small helpers shared by the nn op families (linear, normalization, dropout,
// embedding, activation): LibTorch passes optional weights as
// `const c10::optional<Tensor>&`, and callers spell "absent" either as `{}`
// or as an undefined `Tensor()`; both mean the same here.
#include <optional>

#include "ember/core/tensor.h"

namespace torch::nn_detail {

inline Tensor opt(const std::optional<Tensor>& t) { return t.has_value() ? *t : Tensor(); }

// Shape [1, C, 1, ..., 1] with `dim` entries: a per-channel vector broadcast over (N, C, *).
inline DimVector channel_shape(int64_t dim, int64_t channels) {
  DimVector s(static_cast<size_t>(dim), 1);
  if (dim > 1)
    s[1] = channels;
  else if (dim == 1)
    s[0] = channels;
  return s;
}

}  // namespace torch::nn_detail
