// max_unpool2d / max_unpool3d (ops/nn/pool.h): a scatter of the values into a
// zero output at their max-pool indices, so the gradient is scatter's (each
// value gets the output gradient at its index).
#include <string>

#include "ember/core/record_scope.h"
#include "ember/core/shape.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/index/indexing.h"
#include "ember/ops/nn/pool.h"
#include "ember/ops/reduce/reduce.h"
#include "ember/ops/shape/view.h"
#include "ember/vmap/batched_tensor.h"

namespace torch {

namespace {

Tensor max_unpool(const char* op, const Tensor& self, const Tensor& indices, IntArrayRef output_size) {
  const int64_t k = static_cast<int64_t>(output_size.size());
  EMBER_CHECK(self.defined() && indices.defined(), op, ": expected defined tensors");
  EMBER_CHECK(indices.scalar_type() == kLong, op,
              ": elements in indices should be type int64 but got: ", indices.dtype());
  EMBER_CHECK(self.sizes() == indices.sizes(), op,
              ": Expected shape of indices to be same as that of the input tensor (", shape_str(self.sizes()),
              ") but got indices tensor with shape: ", shape_str(indices.sizes()));
  EMBER_CHECK(self.dim() == k + 1 || self.dim() == k + 2, op, ": Input to ", op, " should be a ", k + 1, "d or ", k + 2,
              "d Tensor, but got a tensor with ", self.dim(), " dimensions (shape ", shape_str(self.sizes()), ")");
  for (int64_t s : output_size)
    EMBER_CHECK(s > 0, op, ": expected a positive output_size, got ", shape_str(output_size));
  EMBER_RECORD_COMPOSITE_OP(op, self, indices);
  const bool unbatched = self.dim() == k + 1;
  const Tensor x = unbatched ? self.unsqueeze(0) : self, idx = unbatched ? indices.unsqueeze(0) : indices;
  const int64_t n = x.size(0), c = x.size(1);
  int64_t in_points = 1, out_points = 1;
  for (int64_t d = 2; d < x.dim(); ++d) in_points *= x.size(d);
  std::string volume;
  for (int64_t s : output_size) {
    out_points *= s;
    if (!volume.empty()) volume += 'x';
    volume += std::to_string(s);
  }
  const Tensor flat_idx = idx.reshape({n, c, in_points});
  if (!batching::any_batched(idx) && flat_idx.numel() > 0) {  // a per-sample check would need the host
    const int64_t hi = flat_idx.max().item<int64_t>(), lo = flat_idx.min().item<int64_t>();
    EMBER_CHECK(lo >= 0 && hi < out_points, op, ": Found an invalid max index: ", lo < 0 ? lo : hi,
                " (output volumes are of size ", volume, ")");
  }
  DimVector out_shape{n, c};
  for (int64_t s : output_size) out_shape.push_back(s);
  Tensor out = zeros({n, c, out_points}, TensorOptions(x.scalar_type()))
                   .scatter(2, flat_idx, x.reshape({n, c, in_points}))
                   .view(out_shape);
  return unbatched ? out.squeeze(0) : out;
}

}  // namespace

Tensor max_unpool2d(const Tensor& self, const Tensor& indices, IntArrayRef output_size) {
  EMBER_CHECK(output_size.size() == 2,
              "max_unpool2d: There should be exactly two elements (height, width) in "
              "output_size, but got ",
              output_size.size(), " elements.");
  return max_unpool("max_unpool2d", self, indices, output_size);
}

Tensor max_unpool3d(const Tensor& self, const Tensor& indices, IntArrayRef output_size, IntArrayRef stride,
                    IntArrayRef padding) {
  EMBER_CHECK(output_size.size() == 3,
              "max_unpool3d: There should be exactly three elements (depth, height, width) "
              "in output_size, but got ",
              output_size.size(), " elements.");
  EMBER_CHECK(stride.size() == 3 && padding.size() == 3,
              "max_unpool3d: There should be exactly three elements "
              "in stride and padding, but got ",
              stride.size(), " and ", padding.size());
  for (int64_t s : stride)
    EMBER_CHECK(s > 0, "max_unpool3d: strides should be greater than zero, but got stride: ", shape_str(stride));
  return max_unpool("max_unpool3d", self, indices, output_size);
}

}  // namespace torch
