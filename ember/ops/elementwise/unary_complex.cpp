// Complex views (real, imag, view_as_real, view_as_complex) and the small
// complex ops (conj, angle, polar, complex).
#include "ember/core/record_scope.h"
#include "ember/core/shape.h"
#include "ember/kernels/cpu/tensor_iterator.h"
#include "ember/kernels/cpu/unary_kernels.h"
#include "ember/ops/elementwise/elementwise.h"
#include "ember/ops/elementwise/unary.h"
#include "ember/ops/shape/mem_overlap.h"

#include "ember/autograd/derivatives/elementwise_grad.h"
#include "ember/autograd/formula_node.h"
#include "ember/vmap/batching_rules.h"

namespace torch {

using kernels::TensorIterator;

namespace {
// A view of `base`'s storage with another dtype; sizes/strides/offset are in
// elements of `dtype` (a complex element is two real ones).
Tensor dtype_view(const Tensor& base, ScalarType dtype, IntArrayRef sizes, IntArrayRef strides, int64_t offset) {
  return Tensor(make_intrusive<TensorImpl>(base.impl()->storage(), dtype, sizes, strides, offset));
}

// The real/imag component of a complex tensor as a strided real view.
Tensor component_view(const Tensor& self, int64_t which) {
  DimVector strides;
  for (int64_t s : self.strides()) strides.push_back(2 * s);
  return dtype_view(self, to_real_type(self.dtype()), self.sizes(), strides, 2 * self.storage_offset() + which);
}
}  // namespace

Tensor real(const Tensor& self) {
  EMBER_VMAP_ELEMENTWISE(self, v, real(v));
  EMBER_RECORD_OP("real", self);
  EMBER_CHECK(self.defined(), "real: expected a defined tensor");
  if (!self.is_complex()) return self;
  Tensor out = component_view(self, 0);
  if (autograd::needs_grad(self)) autograd::record_complex_view(autograd::ComplexView::Real, self, out);
  return out;
}

Tensor imag(const Tensor& self) {
  EMBER_VMAP_ELEMENTWISE(self, v, imag(v));
  EMBER_RECORD_OP("imag", self);
  EMBER_CHECK(self.defined(), "imag: expected a defined tensor");
  EMBER_CHECK(self.is_complex(), "imag: is not implemented for tensors with non-complex dtypes (got ",
              dtype_name(self.dtype()), ")");
  Tensor out = component_view(self, 1);
  if (autograd::needs_grad(self)) autograd::record_complex_view(autograd::ComplexView::Imag, self, out);
  return out;
}

Tensor view_as_real(const Tensor& self) {
  EMBER_VMAP_ON_FRONT(self, v, view_as_real(v));  // the new last dim is physical and logical alike
  EMBER_RECORD_OP("view_as_real", self);
  EMBER_CHECK(self.defined(), "view_as_real: expected a defined tensor");
  EMBER_CHECK(self.is_complex(), "view_as_real: is only supported for complex tensors, got ", dtype_name(self.dtype()));
  DimVector sizes(self.sizes()), strides;
  for (int64_t s : self.strides()) strides.push_back(2 * s);
  sizes.push_back(2);
  strides.push_back(1);
  Tensor out = dtype_view(self, to_real_type(self.dtype()), sizes, strides, 2 * self.storage_offset());
  if (autograd::needs_grad(self)) autograd::record_complex_view(autograd::ComplexView::ViewAsReal, self, out);
  return out;
}

Tensor view_as_complex(const Tensor& self) {
  EMBER_CHECK(self.defined(), "view_as_complex: expected a defined tensor");
  const ScalarType t = self.dtype();
  EMBER_CHECK(t == kFloat || t == kDouble,
              "view_as_complex: is only supported for float32 and float64 tensors (Ember has no complex32), got ",
              dtype_name(t));
  // Checked on the logical shape and strides, before a batched tensor goes to
  // its rule: the logical last dim is the physical last dim, so the physical
  // tensor views as complex itself, and the errors name what the caller sees.
  EMBER_CHECK(self.dim() >= 1, "view_as_complex: Input tensor must have one or more dimensions");
  const int64_t last = self.dim() - 1;
  EMBER_CHECK(self.size(last) == 2, "view_as_complex: Tensor must have a last dimension of size 2, got shape ",
              shape_str(self.sizes()));
  EMBER_CHECK(self.stride(last) == 1, "view_as_complex: Tensor must have a last dimension with stride 1, got strides ",
              shape_str(self.strides()));
  EMBER_VMAP_ON_FRONT(self, v, view_as_complex(v));
  EMBER_RECORD_OP("view_as_complex", self);
  DimVector sizes, strides;
  for (int64_t d = 0; d < last; ++d) {
    EMBER_CHECK(self.stride(d) % 2 == 0,
                "view_as_complex: Tensor must have a stride divisible by 2 for all but last dimension, got strides ",
                shape_str(self.strides()));
    sizes.push_back(self.size(d));
    strides.push_back(self.stride(d) / 2);
  }
  EMBER_CHECK(self.storage_offset() % 2 == 0, "view_as_complex: Tensor must have a storage_offset divisible by 2, got ",
              self.storage_offset());
  Tensor out = dtype_view(self, to_complex_type(t), sizes, strides, self.storage_offset() / 2);
  if (autograd::needs_grad(self)) autograd::record_complex_view(autograd::ComplexView::ViewAsComplex, self, out);
  return out;
}

// See Note [No lazy conjugation] in ops/elementwise/unary.h.
Tensor conj_physical(const Tensor& self) {
  EMBER_VMAP_ELEMENTWISE(self, v, conj_physical(v));
  EMBER_RECORD_OP("conj_physical", self);
  EMBER_CHECK(self.defined(), "conj: expected a defined tensor");
  if (!self.is_complex()) return self;
  Tensor out = ops::unary_apply("conj", self, self.dtype(), self.dtype(), nullptr, false, kernels::conj_kernel);
  if (autograd::needs_grad(self)) autograd::record_conj(self, out);
  return out;
}
Tensor conj(const Tensor& self) {
  EMBER_VMAP_ELEMENTWISE(self, v, conj(v));
  EMBER_RECORD_OP("conj", self);
  return conj_physical(self);
}

namespace {
Tensor angle_impl(const Tensor& self, Tensor* out) {
  EMBER_RECORD_OP("angle", self);
  EMBER_CHECK(self.defined(), "angle: expected a defined tensor");
  const ScalarType t = self.dtype();
  const ScalarType compute = is_integral(t, /*include_bool=*/true) ? get_default_dtype() : t;
  return ops::unary_apply("angle", self, compute, to_real_type(compute), out, false, kernels::angle_kernel);
}

// polar and complex: two real tensors of the same float32/float64 dtype -> complex.
Tensor make_complex(const char* op, const Tensor& a, const Tensor& b, Tensor* out,
                    void (*kernel)(const TensorIterator&)) {
  EMBER_RECORD_OP(op, a, b);
  EMBER_CHECK(a.defined() && b.defined(), op, ": expected defined tensors");
  EMBER_CHECK(a.dtype() == b.dtype() && (a.dtype() == kFloat || a.dtype() == kDouble), op,
              ": expected both inputs to be float32 or float64 tensors of the same dtype, got ", dtype_name(a.dtype()),
              " and ", dtype_name(b.dtype()));
  const DimVector shape = broadcast_shapes(a.sizes(), b.sizes(), op);
  if (out != nullptr) EMBER_CHECK(out->defined(), op, ": out is an undefined tensor");
  const Tensor operands[2] = {a, b};  // out= and overlap rules: Note [Elementwise overlap]
  return ops::run_elementwise(op, operands, operands, shape, to_complex_type(a.dtype()), out, false, kernel);
}
}  // namespace

Tensor angle(const Tensor& self) {
  EMBER_VMAP_ELEMENTWISE(self, v, angle(v));
  Tensor out = angle_impl(self, nullptr);
  if (autograd::needs_grad(self)) autograd::record_angle(self, out);
  return out;
}
Tensor& angle_out(Tensor& out, const Tensor& self) {
  angle_impl(self, &out);
  return out;
}

Tensor polar(const Tensor& abs, const Tensor& angle) {
  if (batching::any_batched(abs, angle)) [[unlikely]]
    return batching::broadcasting({&abs, &angle}, std::nullopt,
                                  [](std::vector<Tensor>& p) { return polar(p[0], p[1]); });
  Tensor out = make_complex("polar", abs, angle, nullptr, kernels::polar_kernel);
  if (autograd::needs_grad(abs, angle)) autograd::record_polar(abs, angle, out);
  return out;
}
Tensor& polar_out(Tensor& out, const Tensor& abs, const Tensor& angle) {
  make_complex("polar", abs, angle, &out, kernels::polar_kernel);
  return out;
}
Tensor complex(const Tensor& real, const Tensor& imag) {
  if (batching::any_batched(real, imag)) [[unlikely]]
    return batching::broadcasting({&real, &imag}, std::nullopt,
                                  [](std::vector<Tensor>& p) { return complex(p[0], p[1]); });
  Tensor out = make_complex("complex", real, imag, nullptr, kernels::complex_kernel);
  if (autograd::needs_grad(real, imag)) autograd::record_complex(real, imag, out);
  return out;
}
Tensor& complex_out(Tensor& out, const Tensor& real, const Tensor& imag) {
  make_complex("complex", real, imag, &out, kernels::complex_kernel);
  return out;
}

Tensor Tensor::real() const { return ember::real(*this); }
Tensor Tensor::imag() const { return ember::imag(*this); }
Tensor Tensor::conj() const { return ember::conj(*this); }
Tensor Tensor::angle() const { return ember::angle(*this); }

}  // namespace torch
