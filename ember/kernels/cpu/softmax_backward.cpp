// Note [Softmax backward rows]
// SoftmaxBackward0's formula, y * (g - sum(g * y)), is four passes over the tensor as
// differentiable ops (a product, a reduction, a difference and a product, each writing a
// new tensor). When the backward itself is not differentiated (GradMode off, the case of
// every first-order backward), a row along the last dim is done in one pass: the row's dot
// product in eight interleaved partial sums (Note [Row sums in lanes]), then the gradient. W10's
// attention weights are 1 M elements in rows of 128. Other dims, dtypes and double
// backward keep the composite.
#include "ember/kernels/cpu/softmax_backward.h"

#include <algorithm>

#include "ember/core/parallel.h"
#include "ember/core/tensor.h"
#include "ember/core/tensor_make.h"
#include "ember/kernels/cpu/softmax_row.h"

namespace torch::kernels {

namespace {

template <typename T>
void rows(const T* g, const T* y, T* out, int64_t nrows, int64_t n) {
  const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(n, 1));
  parallel_for(0, nrows, grain, [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      softmax_backward_row<T>(g + r * n, y + r * n, out + r * n, n);
    }
  });
}

}  // namespace

Tensor softmax_backward_lastdim(const Tensor& g, const Tensor& y) {
  Tensor out = empty_cpu(y.sizes(), y.scalar_type());
  if (y.numel() == 0) return out;
  const int64_t n = y.dim() == 0 ? 1 : y.size(-1);
  const int64_t nrows = y.numel() / n;
  if (y.scalar_type() == kFloat)
    rows<float>(g.data_ptr<float>(), y.data_ptr<float>(), out.data_ptr<float>(), nrows, n);
  else
    rows<double>(g.data_ptr<double>(), y.data_ptr<double>(), out.data_ptr<double>(), nrows, n);
  return out;
}

}  // namespace torch::kernels
