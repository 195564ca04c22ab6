#include "ember/ops/shape/rearrange.h"

#include "ember/core/error.h"
#include "ember/core/shape.h"
#include "ember/ops/index/indexing.h"
#include "ember/ops/shape/copy.h"
#include "ember/ops/shape/shape_ops.h"
#include "ember/ops/shape/view.h"

namespace torch {

Tensor take_along_dim(const Tensor& self, const Tensor& indices, std::optional<int64_t> dim) {
  EMBER_CHECK(self.defined() && indices.defined(), "take_along_dim: expected defined tensors");
  EMBER_CHECK(indices.scalar_type() == kLong, "take_along_dim: dtype of indices should be Long but got ",
              indices.dtype());
  if (!dim) return self.reshape({-1}).gather(0, indices.reshape({-1}));
  EMBER_CHECK(self.dim() == indices.dim(),
              "take_along_dim: input and indices should have the same number of dimensions, but got ", self.dim(),
              " dimensions for input (shape ", shape_str(self.sizes()), "), and ", indices.dim(),
              " dimensions for indices (shape ", shape_str(indices.sizes()), ")");
  const int64_t d = wrap_dim(*dim, self.dim(), "take_along_dim");
  // Broadcast every dim but d; along d, indices keep their length and self its own.
  DimVector self_sizes(self.sizes());
  if (self.dim() > 0) self_sizes[static_cast<size_t>(d)] = indices.size(d);
  DimVector shape = broadcast_shapes(self_sizes, indices.sizes(), "take_along_dim");
  const Tensor idx = indices.expand(shape);
  if (self.dim() > 0) shape[static_cast<size_t>(d)] = self.size(d);
  return self.expand(shape).gather(d, idx);
}

Tensor rot90(const Tensor& self, int64_t k, IntArrayRef dims) {
  EMBER_CHECK(self.defined(), "rot90: expected a defined tensor");
  EMBER_CHECK(dims.size() == 2, "rot90: expected total rotation dims == 2, but got dims = ", dims.size());
  EMBER_CHECK(self.dim() >= 2, "rot90: expected total dims >= 2, but got total dims = ", self.dim(), " (shape ",
              shape_str(self.sizes()), ")");
  const int64_t d0 = wrap_dim(dims[0], self.dim(), "rot90"), d1 = wrap_dim(dims[1], self.dim(), "rot90");
  EMBER_CHECK(d0 != d1, "rot90: expected rotation dims to be different, but got dim0 = ", dims[0],
              " and dim1 = ", dims[1]);
  switch (((k % 4) + 4) % 4) {
    case 1:
      return self.flip({d1}).transpose(d0, d1);
    case 2:
      return self.flip({d0, d1});
    case 3:
      return self.flip({d0}).transpose(d0, d1);
    default:
      return self.clone();
  }
}

Tensor Tensor::take_along_dim(const Tensor& indices, std::optional<int64_t> dim) const {
  return ember::take_along_dim(*this, indices, dim);
}
Tensor Tensor::rot90(int64_t k, IntArrayRef dims) const { return ember::rot90(*this, k, dims); }

}  // namespace torch
