#include "ember/core/tensor_impl.h"

#include <algorithm>

#include "ember/core/error.h"

namespace torch {

TensorImpl::TensorImpl(Storage storage, ScalarType dtype, IntArrayRef sizes, IntArrayRef strides, int64_t offset)
    : storage_(std::move(storage)),
      sizes_(sizes),
      strides_(strides),
      offset_(offset),
      dtype_(dtype),
      itemsize_(element_size(dtype)) {
  refresh();
}

TensorImpl::TensorImpl(Storage storage, ScalarType dtype, IntArrayRef sizes, int64_t numel, Contiguous)
    : storage_(std::move(storage)),
      sizes_(sizes),
      strides_(sizes.size()),
      numel_(numel),
      dtype_(dtype),
      itemsize_(element_size(dtype)) {
  int64_t acc = 1;
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    strides_[d] = acc;
    // A tensor with a zero-size dim holds no bytes, so its numel check passes whatever the other
    // dims are; the product past the outermost stride is never needed (and may not fit), and the
    // strides themselves must be representable (fuzz/corpus/rpc_frame/huge_empty_tensor_dims).
    if (d > 0)
      EMBER_CHECK(!__builtin_mul_overflow(acc, std::max<int64_t>(sizes[d], 1), &acc), "tensor: the sizes ", sizes,
                  " are too large: their strides overflow int64");
  }
}

void TensorImpl::set_geometry(IntArrayRef sizes, IntArrayRef strides, int64_t offset) {
  sizes_ = sizes;
  strides_ = strides;
  offset_ = offset;
  refresh();
}

// A tensor is contiguous when its strides are the row-major strides of its
// sizes, ignoring dims of size 1 (PyTorch's definition).
void TensorImpl::refresh() {
  numel_ = 1;
  for (int64_t s : sizes_) numel_ *= s;
  contiguous_ = true;
  if (numel_ == 0) return;
  int64_t expected = 1;
  for (int64_t d = dim() - 1; d >= 0; --d) {
    if (sizes_[d] == 1) continue;
    if (strides_[d] != expected) {
      contiguous_ = false;
      return;
    }
    expected *= sizes_[d];
  }
}

}  // namespace torch
