#include "ember/core/tensor.h"

#include "ember/core/dispatch.h"
#include "ember/core/shape.h"

namespace torch {

size_t Tensor::nbytes() const {
  size_t n;
  EMBER_CHECK(!__builtin_mul_overflow(static_cast<size_t>(numel()), itemsize(), &n), "nbytes: ", numel(),
              " elements of ", dtype(), " overflow the byte count");
  return n;
}

void Tensor::undefined_error() {
  throw Error("Tensor: this operation needs a defined tensor, but the tensor is undefined (default-constructed)");
}

void Tensor::batched_data_ptr_error() const {
  EMBER_ERROR("data_ptr: called on a tensor batched by vmap (logical shape ", shape_str(sizes()),
              "); its elements differ per sample, so a function under vmap cannot read them");
}

int64_t Tensor::size(int64_t d) const { return sizes()[wrap_dim(d, dim(), "size", false)]; }
int64_t Tensor::stride(int64_t d) const { return strides()[wrap_dim(d, dim(), "stride", false)]; }

TensorOptions Tensor::options() const { return TensorOptions().dtype(dtype()).device(device()); }

bool Tensor::is_signed() const {
  ScalarType t = dtype();
  return t != kByte && t != kBool;
}

std::string Tensor::toString() const { return std::string("CPU") + type_name_short(dtype()) + "Type"; }

Scalar Tensor::item() const {
  EMBER_CHECK(defined(), "item: called on an undefined tensor");
  EMBER_CHECK(ti()->batched_meta() == nullptr,
              "item: called on a tensor batched by vmap (its value differs per sample); a function under vmap "
              "cannot turn a batched tensor into a number");
  EMBER_CHECK(numel() == 1, "item: a Tensor with ", numel(), " elements (shape ", shape_str(sizes()),
              ") cannot be converted to Scalar");
  return dispatch_all(dtype(), "item", [&](auto tag) -> Scalar {
    using T = EMBER_TYPE(tag);
    return Scalar(*reinterpret_cast<const T*>(ti()->data()));
  });
}

bool Tensor::is_nonzero() const {
  EMBER_CHECK(numel() == 1, "is_nonzero: Boolean value of Tensor with ",
              numel() == 0 ? "no values" : "more than one value", " is ambiguous");
  return item().toBool();
}

Tensor& Tensor::operator=(const Tensor& src) && {
  copy_(src);
  return *this;
}
Tensor& Tensor::operator=(Tensor&& src) && {
  copy_(src);
  return *this;
}
Tensor& Tensor::operator=(const Scalar& v) && {
  fill_(v);
  return *this;
}

}  // namespace torch
