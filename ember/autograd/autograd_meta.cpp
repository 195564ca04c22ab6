#include "ember/autograd/autograd_meta.h"

#include "ember/ops/view.h"

namespace ember {
namespace autograd {

AutogradMeta& materialize_meta(const Tensor& t) {
  TensorImpl* impl = t.unsafeGetTensorImpl();
  if (impl->autograd_meta() == nullptr) impl->set_autograd_meta(std::make_unique<AutogradMeta>());
  return *static_cast<AutogradMeta*>(impl->autograd_meta());
}

}  // namespace autograd

bool Tensor::requires_grad() const {
  auto* m = autograd::get_meta(*this);
  return m != nullptr && m->requires_grad;
}

Tensor& Tensor::requires_grad_(bool r) {
  EMBER_CHECK(!r || is_floating_point() || is_complex(), "requires_grad_: only Tensors of floating point and complex dtype can require gradients (got ",
              dtype(), ")");
  if (!r && autograd::get_meta(*this) == nullptr) return *this;
  autograd::materialize_meta(*this).requires_grad = r;
  return *this;
}

const Tensor& Tensor::grad() const {
  static const Tensor kUndefined;
  auto* m = autograd::get_meta(*this);
  return m ? m->grad : kUndefined;
}

Tensor& Tensor::mutable_grad() const { return autograd::materialize_meta(*this).grad; }

bool Tensor::is_leaf() const { return true; }

Tensor Tensor::detach() const { return ops::make_view(*this, sizes(), strides(), storage_offset()); }

Tensor& Tensor::detach_() {
  if (auto* m = autograd::get_meta(*this)) m->requires_grad = false;
  return *this;
}

}  // namespace ember
