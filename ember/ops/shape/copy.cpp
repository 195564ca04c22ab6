#include "ember/ops/shape/copy.h"

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "ember/autograd/derivatives/shape_grad.h"
#include "ember/autograd/formula_node.h"
#include "ember/core/dispatch.h"
#include "ember/core/record_scope.h"
#include "ember/core/shape.h"
#include "ember/kernels/cpu/convert.h"
#include "ember/kernels/cpu/loops.h"
#include "ember/kernels/cpu/reduced_float.h"
#include "ember/kernels/cpu/transpose_copy.h"
#include "ember/ops/elementwise/elementwise.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/shape/mem_overlap.h"
#include "ember/vmap/batching_rules.h"

namespace torch {

using kernels::TensorIterator;

namespace {
void copy_kernel(Tensor& self, const Tensor& src);
}  // namespace

Tensor& copy_(Tensor& self, const Tensor& src) {
  if (batching::any_batched(self, src)) [[unlikely]] {
    batching::broadcasting_("copy_", {&self, &src}, std::nullopt,
                            [](std::vector<Tensor>& p) { return p[0].copy_(p[1]); });
    return self;
  }
  EMBER_RECORD_OP("copy_", self, src);
  EMBER_CHECK(self.defined() && src.defined(), "copy_: expected defined tensors");
  // Internal copies into fresh tensors see no grad; a user's copy_ into a view
  // of a graph tensor becomes CopySlices (Note [Views and in-place]).
  const bool grad = autograd::needs_grad(self, src);
  if (grad) autograd::check_inplace(self, "copy_");
  {
    autograd::BelowAutogradGuard no_grad;  // the kernel's own temporaries are not part of the graph
    copy_kernel(self, src);
  }
  if (grad) autograd::record_copy_(self, src);
  return self;
}

namespace {
// copy_ without autograd.
void copy_kernel(Tensor& self, const Tensor& src) {
  Tensor b = src;
  if (!src.sizes().equals(self.sizes())) {
    // src must broadcast *to* self's shape.
    EMBER_CHECK(
        src.dim() <= self.dim() && broadcast_shapes(self.sizes(), src.sizes(), "copy_").ref().equals(self.sizes()),
        "copy_: source shape ", shape_str(src.sizes()), " cannot be broadcast to destination shape ",
        shape_str(self.sizes()));
  }
  if (self.numel() == 0) return;
  if (self.is_same(src)) return;
  // Shared memory follows ops/shape/mem_overlap.h: a destination with a broadcast
  // dim and a partial overlap of dense tensors raise, any other is read
  // through a copy.
  ops::assert_no_output_overlap("copy_", self, ArrayRef<Tensor>(&src, 1));
  if (ops::needs_input_copy(self, src)) b = clone(src);
  if (kernels::try_transpose_copy(self, b)) {  // Note [Transposing copies]
    self.bump_version();
    return;
  }
  TensorIterator iter({self}, {b});
  dispatch_all(self.dtype(), "copy_", [&](auto out_tag) {
    using Out = EMBER_TYPE(out_tag);
    dispatch_all(b.dtype(), "copy_", [&](auto in_tag) {
      using In = EMBER_TYPE(in_tag);
      iter.for_each([](char** data, const int64_t* s, int64_t n) {
        if constexpr (!std::is_same_v<In, Out> &&
                      (kernels::is_reduced_float_v<In> || kernels::is_reduced_float_v<Out>)) {
          // Note [Reduced-precision blocks]: one shared converter per side.
          return kernels::convert_run_through_float<Out, In>(data, s, n);
        }
        if (s[0] == sizeof(Out) && s[1] == sizeof(In)) {
          Out* o = reinterpret_cast<Out*>(data[0]);
          if constexpr (std::is_same_v<In, Out>) {
            // Same dtype: memcpy, whose short-copy code beats a vectorised loop's
            // set-up on the 64-element runs of a permuted copy, and whose long
            // copies need no read of the destination lines first.
            std::memcpy(o, data[1], static_cast<size_t>(n) * sizeof(Out));
          } else if constexpr (std::is_same_v<In, bool> && std::is_arithmetic_v<Out>) {
            // A bool's byte is 0 or 1, so reading it as uint8 gives the same
            // values; GCC vectorises no loop that loads bool (a mask turned
            // into float for `grad * (x > 0)` ran one element per cycle).
            const uint8_t* in = reinterpret_cast<const uint8_t*>(data[1]);
            for (int64_t i = 0; i < n; ++i) o[i] = static_cast<Out>(in[i]);
          } else {
            const In* in = reinterpret_cast<const In*>(data[1]);
            for (int64_t i = 0; i < n; ++i) o[i] = kernels::convert<Out>(in[i]);
          }
        } else {
          char* po = data[0];
          const char* pi = data[1];
          for (int64_t i = 0; i < n; ++i, po += s[0], pi += s[1])
            *reinterpret_cast<Out*>(po) = kernels::convert<Out>(*reinterpret_cast<const In*>(pi));
        }
      });
    });
  });
  self.bump_version();
}
}  // namespace

Tensor clone(const Tensor& self) {
  EMBER_VMAP_ELEMENTWISE(self, v, clone(v));
  EMBER_RECORD_OP("clone", self);
  Tensor out = empty_like(self);
  if (self.numel() > 0) {
    EMBER_RECORD_OP("copy_", out, self);  // PyTorch's clone is empty_like + copy_
    copy_kernel(out, self);
  }
  if (autograd::needs_grad(self)) autograd::record_clone(self, out);
  return out;
}

// Like PyTorch's Tensor::contiguous, records aten::contiguous only when it copies.
Tensor contiguous(const Tensor& self) {
  if (self.is_contiguous()) return self;
  EMBER_VMAP_ON_FRONT(self, v, v.contiguous());
  EMBER_RECORD_OP("contiguous", self);
  return clone(self);
}

namespace {
void fill_kernel(Tensor& self, const Scalar& v) {
  EMBER_CHECK(self.defined(), "fill_: called on an undefined tensor");
  EMBER_CHECK(!(v.isComplex() && !self.is_complex()), "fill_: cannot fill a ", self.dtype(),
              " tensor with a complex value ", v);
  check_fits(v, self.dtype(), "fill_");
  if (self.numel() == 0) return;
  dispatch_all(self.dtype(), "fill_", [&](auto tag) {
    using T = EMBER_TYPE(tag);
    const T value = v.to<T>();
    TensorIterator iter({self}, {});
    iter.for_each([&](char** data, const int64_t* s, int64_t n) {
      if (s[0] == sizeof(T)) {
        T* o = reinterpret_cast<T*>(data[0]);
        for (int64_t i = 0; i < n; ++i) o[i] = value;
      } else {
        char* p = data[0];
        for (int64_t i = 0; i < n; ++i, p += s[0]) *reinterpret_cast<T*>(p) = value;
      }
    });
  });
  self.bump_version();
}
}  // namespace

// fill_/zero_ on a tensor in a graph replace its values: its history becomes a
// node that passes no gradient to the old values (a view's, via CopySlices).
Tensor& fill_(Tensor& self, const Scalar& v) {
  EMBER_VMAP_ELEMENTWISE_(self, p, fill_(p, v));
  EMBER_RECORD_OP("fill_", self);
  const bool grad = autograd::needs_grad(self);
  if (grad) autograd::check_inplace(self, "fill_");
  fill_kernel(self, v);
  if (grad) autograd::record_fill_(self, Tensor());
  return self;
}

Tensor& zero_(Tensor& self) {
  EMBER_VMAP_ELEMENTWISE_(self, p, zero_(p));
  EMBER_RECORD_OP("zero_", self);
  const bool grad = autograd::needs_grad(self);
  if (grad) autograd::check_inplace(self, "zero_");
  fill_kernel(self, 0);
  if (grad) autograd::record_zero_(self);
  return self;
}

namespace ops {
Tensor cast(const Tensor& self, ScalarType t) {
  if (self.dtype() == t) return self;
  Tensor out = empty_cpu(self.sizes(), t);  // an op's internal cast: no profiler event
  copy_kernel(out, self);                   // callers record their own backward
  return out;
}
}  // namespace ops

// ---- Tensor methods ----------------------------------------------------------
Tensor& Tensor::copy_(const Tensor& src, bool) const { return ember::copy_(self_ref(), src); }
Tensor Tensor::clone() const { return ember::clone(*this); }
Tensor Tensor::contiguous() const { return ember::contiguous(*this); }
Tensor& Tensor::fill_(const Scalar& v) const { return ember::fill_(self_ref(), v); }
Tensor& Tensor::fill_(const Tensor& v) const {
  Tensor& self = self_ref();
  EMBER_CHECK(v.dim() == 0, "fill_: only supports 0-dimension value tensor but got tensor with ", v.dim(),
              " dimensions");
  // Under vmap the value may differ per sample: a copy of it into each sample
  // (copy_'s rule, which also refuses a per-sample value into a shared self).
  if (batching::any_batched(self, v)) [[unlikely]]
    return ember::copy_(self, v.expand(self.sizes()));
  const bool grad = autograd::needs_grad(self, v);
  if (!grad) return ember::fill_(self, v.item());
  autograd::check_inplace(self, "fill_");
  fill_kernel(self, v.item());
  autograd::record_fill_(self, v);
  return self;
}
Tensor& Tensor::zero_() const { return ember::zero_(self_ref()); }

// Recorded as PyTorch records it: aten::to, and when it copies aten::_to_copy
// with aten::empty and aten::copy_ under it.
Tensor Tensor::to(ScalarType t, bool, bool copy) const {
  EMBER_VMAP_ELEMENTWISE(*this, v, v.to(t, false, copy));
  EMBER_RECORD_OP("to", *this);
  if (dtype() == t && !copy) return *this;
  EMBER_RECORD_OP("_to_copy", *this);
  Tensor out = empty(sizes(), options().dtype(t));
  {
    EMBER_RECORD_OP("copy_", out, *this);
    copy_kernel(out, *this);
  }
  if ((ember::is_floating_point(t) || ember::is_complex(t)) && autograd::needs_grad(*this))
    autograd::record_to_copy(*this, out);
  return out;
}
Tensor Tensor::to(Device d, bool, bool copy) const {
  EMBER_CHECK(d.is_cpu(), "to: device ", d, " is not available (Ember was built for the CPU only)");
  return copy ? clone() : *this;
}
Tensor Tensor::to(Device d, ScalarType t, bool nb, bool copy) const {
  EMBER_CHECK(d.is_cpu(), "to: device ", d, " is not available (Ember was built for the CPU only)");
  return to(t, nb, copy);
}
Tensor Tensor::to(const TensorOptions& o, bool nb, bool copy) const {
  EMBER_CHECK(o.device().is_cpu(), "to: device ", o.device(), " is not available (Ember was built for the CPU only)");
  // As LibTorch: a conversion does not set requires_grad (use requires_grad_() on the result).
  EMBER_CHECK(!o.requires_grad(),
              "to: to(options) expects unset requires_grad flag, but got "
              "options.requires_grad set as true");
  EMBER_CHECK(o.layout() == kStrided, "to: layout ", o.layout(), " is not available (Ember's tensors are strided)");
  return o.has_dtype() ? to(o.dtype(), nb, copy) : (copy ? clone() : *this);
}
Tensor Tensor::to(const Tensor& other, bool nb, bool copy) const { return to(other.dtype(), nb, copy); }

}  // namespace torch
