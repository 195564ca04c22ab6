#include "ember/ops/reduce_util.h"

#include "ember/ops/copy.h"

namespace ember::ops {

uint64_t all_dims_mask(const Tensor& x) { return x.dim() == 0 ? 0 : (~uint64_t(0) >> (64 - x.dim())); }

uint64_t reduce_mask(const Tensor& x, IntArrayRef dims, const char* op) {
  if (dims.empty()) return all_dims_mask(x);
  // A 0-dim tensor accepts dim 0 / -1 (as PyTorch) and has nothing to reduce.
  return dim_mask(dims, std::max<int64_t>(x.dim(), 1), op) & all_dims_mask(x);
}

uint64_t reduce_mask(const Tensor& x, int64_t dim, const char* op) {
  const int64_t d = wrap_dim(dim, x.dim(), op);
  return x.dim() == 0 ? 0 : uint64_t(1) << d;
}

DimVector reduce_shape(const Tensor& x, uint64_t mask, bool keepdim) {
  DimVector out;
  for (int64_t d = 0; d < x.dim(); ++d) {
    if (!(mask & (uint64_t(1) << d))) {
      out.push_back(x.size(d));
    } else if (keepdim) {
      out.push_back(1);
    }
  }
  return out;
}

int64_t reduced_numel(const Tensor& x, uint64_t mask) {
  int64_t n = 1;
  for (int64_t d = 0; d < x.dim(); ++d)
    if (mask & (uint64_t(1) << d)) n *= x.size(d);
  return n;
}

void check_nonempty_dims(const Tensor& x, uint64_t mask, const char* op) {
  for (int64_t d = 0; d < x.dim(); ++d)
    EMBER_CHECK(!(mask & (uint64_t(1) << d)) || x.size(d) != 0, op, "(): Expected reduction dim ", d,
                " to have non-zero size (input shape ", shape_str(x.sizes()), ").");
}

Tensor cast_to(const Tensor& x, ScalarType t) { return x.dtype() == t ? x : x.to(t); }

}  // namespace ember::ops
