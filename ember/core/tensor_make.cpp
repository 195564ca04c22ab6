#include "ember/core/tensor_make.h"

#include <cstdint>

#include "ember/core/error.h"
#include "ember/core/shape.h"

namespace torch {

Tensor empty_cpu(IntArrayRef size, ScalarType dt) {
  const int64_t n = checked_numel(size, "empty");
  size_t nbytes;
  EMBER_CHECK(!__builtin_mul_overflow(static_cast<size_t>(n), element_size(dt), &nbytes) &&
                  nbytes <= static_cast<size_t>(PTRDIFF_MAX) / 2,
              "empty: size ", shape_str(size), " of dtype ", dt, " overflows the address space");
  return Tensor(make_intrusive<TensorImpl>(StorageImpl::allocate(nbytes), dt, size, n, TensorImpl::Contiguous{}));
}

Tensor make_view(const Tensor& base, IntArrayRef sizes, IntArrayRef strides, int64_t offset) {
  return Tensor(make_intrusive<TensorImpl>(base.impl()->storage(), base.dtype(), sizes, strides, offset));
}

}  // namespace torch
