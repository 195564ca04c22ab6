#include "ember/autograd/saved_variable.h"

#include "ember/autograd/autograd_meta.h"
#include "ember/autograd/forward_ad.h"
#include "ember/autograd/grad_mode.h"
#include "ember/ops/shape/view.h"

namespace torch::autograd {

SavedVariable::SavedVariable(const Tensor& t, bool is_output, const Node* saver) : is_output_(is_output) {
  if (!t.defined()) return;
  saved_version_ = t._version();
  if (is_output) {
    AutogradMeta* m = get_meta(t);
    if (m && saver != nullptr && m->grad_fn.get() == saver && !m->view_base.defined()) {
      output_of_saver_ = true;
      output_nr_ = m->output_nr;
    } else if (m && current_grad_fn(t, *m)) {
      grad_fn_ = m->grad_fn;
      output_nr_ = m->output_nr;
    }
    data_ = make_view(t, t.sizes(), t.strides(), t.storage_offset());
  } else {
    data_ = t;
  }
}

const Tensor& SavedVariable::unpack_ref(const Node* saved_for, Tensor& rebuilt) const {
  if (data_.defined() && data_._version() == saved_version_ &&
      (!is_output_ || (!GradMode::is_enabled() && !forward_ad::is_active())))
    return data_;
  rebuilt = unpack(saved_for);
  return rebuilt;
}

Tensor SavedVariable::unpack(const Node* saved_for) const {
  if (!data_.defined()) {
    EMBER_CHECK(!was_released_,
                "Trying to backward through the graph a second time (or directly access saved tensors "
                "after they have already been freed). Saved intermediate values of the graph are freed when you call "
                ".backward() or autograd.grad(). Specify retain_graph=true if you need to backward through the graph a "
                "second time or if you need to access saved tensors after calling backward.",
                saved_for ? str(" (node: ", saved_for->name(), ")") : std::string());
    return Tensor();
  }
  EMBER_CHECK(data_._version() == saved_version_,
              "one of the variables needed for gradient computation has been modified by an inplace operation: [",
              data_.toString(), " ", shape_str(data_.sizes()), "]",
              saved_for ? str(", which is needed by ", saved_for->name()) : std::string(), ", is at version ",
              data_._version(), "; expected version ", saved_version_,
              " instead. Hint: the operation that modified it ran after the forward op saved it; use .clone() before "
              "the in-place op or make it out-of-place.");
  if (!is_output_) return data_;
  // Without grad mode (a backward pass without create_graph) nothing records
  // against the rebuilt output, so its history need not be restored.
  if (!GradMode::is_enabled() && !forward_ad::is_active()) return data_;
  std::shared_ptr<Node> fn = output_of_saver_ && saved_for != nullptr
                                 ? std::const_pointer_cast<Node>(saved_for->shared_from_this())
                                 : grad_fn_.lock();
  if (!fn) return data_;
  // Rebuild "the output of fn" so gradients of this tensor flow into fn (double backward).
  Tensor t = make_view(data_, data_.sizes(), data_.strides(), data_.storage_offset());
  AutogradMeta& m = materialize_meta(t);
  m.grad_fn = fn;
  m.output_nr = output_nr_;
  if (Tensor tangent = forward_ad::fw_grad(data_); tangent.defined()) forward_ad::set_fw_grad(t, tangent);
  return t;
}

void SavedVariable::set_output_tangent(const Tensor& output, const Tensor& tangent) {
  if (is_output_ && data_.defined() && data_.data_ptr() == output.data_ptr() && data_.sizes().equals(output.sizes()))
    forward_ad::set_fw_grad(data_, tangent);
}

}  // namespace torch::autograd
