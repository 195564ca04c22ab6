#include "ember/ops/reduce/reduce_util.h"

#include "ember/kernels/cpu/tensor_iterator.h"
#include "ember/ops/shape/copy.h"

namespace torch::ops {

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

namespace {
// The line's first element of every line: `t` with size 1 along dim.
Tensor line_heads(const Tensor& t, int64_t dim) {
  if (t.dim() == 0) return t.view({1});
  return t.narrow(dim, 0, 1);
}
}  // namespace

int64_t line_stride(const Tensor& t, int64_t dim) {
  return t.dim() == 0 ? 0 : t.stride(dim) * static_cast<int64_t>(t.itemsize());
}

void for_each_line(ArrayRef<Tensor> outs, ArrayRef<Tensor> ins, int64_t dim,
                   const std::function<void(char* const* line_starts)>& f) {
  const Tensor& ref = outs.empty() ? ins[0] : outs[0];
  if (ref.numel() == 0) return;
  const int64_t len = ref.dim() == 0 ? 1 : ref.size(dim);
  std::vector<Tensor> o, i;
  for (const Tensor& t : outs) o.push_back(line_heads(t, dim));
  for (const Tensor& t : ins) i.push_back(line_heads(t, dim));
  kernels::TensorIterator iter(o, i);
  const int nt = iter.ntensors();
  iter.for_each(
      [&](char** data, const int64_t* strides, int64_t n) {
        char* ptrs[kernels::TensorIterator::kMaxOperands];
        for (int64_t k = 0; k < n; ++k) {
          for (int j = 0; j < nt; ++j) ptrs[j] = data[j] + k * strides[j];
          f(ptrs);
        }
      },
      std::max<int64_t>(1, kGrainSize / len));
}

}  // namespace torch::ops
