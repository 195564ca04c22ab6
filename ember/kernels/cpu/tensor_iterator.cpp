#include "ember/kernels/cpu/tensor_iterator.h"

#include <algorithm>

#include "ember/core/parallel.h"
#include "ember/core/shape.h"

namespace torch::kernels {

TensorIterator::TensorIterator(std::initializer_list<Tensor> outputs, std::initializer_list<Tensor> inputs) {
  build(outputs.begin(), outputs.size(), inputs.begin(), inputs.size());
}
TensorIterator::TensorIterator(ArrayRef<Tensor> outputs, ArrayRef<Tensor> inputs) {
  build(outputs.data(), outputs.size(), inputs.data(), inputs.size());
}

bool TensorIterator::try_build_trivial(const Tensor* outs, size_t nout, const Tensor* ins, size_t nin) {
  IntArrayRef shape = outs[0].sizes();
  for (int i = 0; i < ntensors_; ++i) {
    const Tensor& t = i < static_cast<int>(nout) ? outs[i] : ins[i - nout];
    if (!t.is_contiguous() || !t.sizes().equals(shape)) return false;
  }
  shape_.assign(1, numel_);
  strides_.assign(kMaxOperands, 0);
  for (int i = 0; i < ntensors_; ++i) {
    const Tensor& t = i < static_cast<int>(nout) ? outs[i] : ins[i - nout];
    data_[i] = static_cast<char*>(t.data_ptr());
    dtypes_[i] = t.scalar_type();
    stride(i, 0) = static_cast<int64_t>(t.itemsize());
  }
  return true;
}

void TensorIterator::build(const Tensor* outs, size_t nout, const Tensor* ins, size_t nin) {
  ntensors_ = static_cast<int>(nout + nin);
  EMBER_INTERNAL_ASSERT(ntensors_ <= kMaxOperands && nout >= 1, "TensorIterator: bad operand count");
  numel_ = outs[0].numel();
  if (try_build_trivial(outs, nout, ins, nin)) return;
  IntArrayRef out_shape = outs[0].sizes();
  const int64_t nd = static_cast<int64_t>(out_shape.size());

  // Byte strides in the output's dim order (slowest first) for each operand.
  std::array<DimVector, kMaxOperands> st;
  for (int i = 0; i < ntensors_; ++i) {
    const Tensor& t = i < static_cast<int>(nout) ? outs[i] : ins[i - nout];
    data_[i] = static_cast<char*>(t.data_ptr());
    dtypes_[i] = t.scalar_type();
    int64_t isz = static_cast<int64_t>(t.itemsize());
    IntArrayRef sz = t.sizes();
    IntArrayRef sd = t.strides();
    EMBER_INTERNAL_ASSERT(static_cast<int64_t>(sz.size()) <= nd, "TensorIterator: operand has more dims than output");
    st[i] = DimVector(nd, 0);
    int64_t off = nd - static_cast<int64_t>(sz.size());
    for (int64_t d = 0; d < static_cast<int64_t>(sz.size()); ++d) {
      EMBER_INTERNAL_ASSERT(sz[d] == out_shape[d + off] || sz[d] == 1, "TensorIterator: operand not broadcastable");
      st[i][d + off] = sz[d] == 1 ? 0 : sd[d] * isz;
    }
  }

  // Order dims: innermost = smallest |output stride| (ties keep row-major order).
  DimVector perm(nd);
  for (int64_t d = 0; d < nd; ++d) perm[d] = nd - 1 - d;  // fastest first by default
  auto key = [&](int64_t d) {
    for (int i = 0; i < ntensors_; ++i)
      if (st[i][d] != 0) return std::abs(st[i][d]);
    return int64_t(0);
  };
  // Insertion sort: stable, allocation-free, and nd is small.
  for (int64_t i = 1; i < nd; ++i)
    for (int64_t j = i; j > 0 && key(perm[j]) < key(perm[j - 1]); --j) std::swap(perm[j], perm[j - 1]);

  // Coalesce: dims d (inner) and e (outer) merge when stride[e] == stride[d]*size[d] for all.
  shape_.clear();
  strides_.clear();
  for (int64_t k = 0; k < nd; ++k) {
    int64_t d = perm[k];
    int64_t size = out_shape[d];
    if (size == 1) continue;
    if (!shape_.empty()) {
      const int64_t last = static_cast<int64_t>(shape_.size()) - 1;
      bool can_merge = true;
      for (int i = 0; i < ntensors_ && can_merge; ++i) can_merge = st[i][d] == stride(i, last) * shape_.back();
      if (can_merge) {
        shape_.back() *= size;
        continue;
      }
    }
    push_dim(size);
    for (int i = 0; i < ntensors_; ++i) stride(i, static_cast<int64_t>(shape_.size()) - 1) = st[i][d];
  }
  if (shape_.empty()) push_dim(1);  // scalar iteration space: strides 0
}

DimVector TensorIterator::start_counter(int64_t begin, std::array<char*, kMaxOperands>& ptrs) const {
  const int nd = ndim();
  DimVector counter(nd, 0);
  for (int i = 0; i < ntensors_; ++i) ptrs[i] = data_[i];
  int64_t rem = begin;
  for (int d = 0; d < nd; ++d) {
    counter[d] = rem % shape_[d];
    rem /= shape_[d];
    for (int i = 0; i < ntensors_; ++i) ptrs[i] += counter[d] * stride(i, d);
  }
  return counter;
}

// After a run of n elements along dim 0: rewind dim 0 and carry into the outer dims.
void TensorIterator::advance_outer(DimVector& counter, std::array<char*, kMaxOperands>& ptrs, int64_t n) const {
  (void)n;
  for (int i = 0; i < ntensors_; ++i) ptrs[i] -= counter[0] * stride(i, 0);
  counter[0] = 0;
  for (int d = 1; d < ndim(); ++d) {
    ++counter[d];
    for (int i = 0; i < ntensors_; ++i) ptrs[i] += stride(i, d);
    if (counter[d] < shape_[d]) break;
    for (int i = 0; i < ntensors_; ++i) ptrs[i] -= counter[d] * stride(i, d);
    counter[d] = 0;
  }
}

}  // namespace torch::kernels
