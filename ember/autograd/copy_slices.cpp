#include "ember/autograd/copy_slices.h"

#include "ember/autograd/derivatives/shape_layout_grad.h"
#include "ember/autograd/forward_ad.h"
#include "ember/autograd/grad_mode.h"
#include "ember/core/shape.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/shape/copy.h"
#include "ember/ops/shape/view.h"
#include "ember/vmap/batched_tensor.h"

namespace torch::autograd {

CopySlices::CopySlices(const Tensor& base, const Tensor& view, std::shared_ptr<Node> fn, uint32_t fn_output_nr,
                       int self_input)
    : base_sizes_(base.sizes()),
      base_strides_(base.strides()),
      view_sizes_(view.sizes()),
      view_strides_(view.strides()),
      view_offset_(view.storage_offset() - base.storage_offset()),
      fn_(std::move(fn)),
      fn_output_nr_(fn_output_nr),
      self_input_(self_input) {
  // Edge 0: the base's history before the write; then fn's edges, except the
  // one for the view's old value, whose gradient goes into the base's slice.
  add_next_edge(gradient_edge(base));
  for (size_t i = 0; i < fn_->num_outputs(); ++i)
    add_next_edge(static_cast<int>(i) == self_input_ ? Edge() : fn_->next_edge(i));
}

variable_list CopySlices::apply(variable_list&& grads) {
  variable_list out(num_outputs());
  const Tensor& grad = grads.at(0);
  if (!grad.defined()) return out;  // an undefined gradient is zero everywhere
  Tensor result;
  if (batching::any_batched(grad)) [[unlikely]] {
    // Under vmap (jacrev of a write into a fresh buffer) the result must be
    // batched too; a batched zeros is laid out contiguously, so the slice
    // below maps onto it only for a contiguous base.
    EMBER_CHECK(base_strides_ == contiguous_strides(base_sizes_),
                "CopySlices: vmap over the backward of an in-place write into a view of a non-contiguous base is not "
                "supported (base of shape ",
                shape_str(base_sizes_), ")");
    result = grad.new_zeros(base_sizes_);
  } else {
    result = empty_strided(base_sizes_, base_strides_, grad.options());
  }
  result.copy_(grad);
  Tensor slice = result.as_strided(view_sizes_, view_strides_, result.storage_offset() + view_offset_);
  variable_list fn_grads(fn_->num_inputs());
  fn_grads.at(fn_output_nr_) = slice.clone();
  variable_list res = (*fn_)(std::move(fn_grads));
  if (self_input_ >= 0 && static_cast<size_t>(self_input_) < res.size() && res[self_input_].defined())
    slice.copy_(res[self_input_]);
  else
    slice.zero_();
  out[0] = std::move(result);
  for (size_t i = 0; i < res.size() && i + 1 < out.size(); ++i)
    if (static_cast<int>(i) != self_input_ && should_compute_output(i + 1)) out[i + 1] = std::move(res[i]);
  return out;
}

void set_view_base(const Tensor& self, const Tensor& view) {
  if (!view.is_floating_point() && !view.is_complex()) return;
  if (view.impl()->storage() != self.impl()->storage() || view.is_same(self)) return;  // e.g. reshape that copied
  AutogradMeta* sm = get_meta(self);
  // A view made in no_grad mode (or from such a view) may not be written in place
  // with grad mode on, whether or not its base requires grad, as PyTorch.
  if (!GradMode::is_enabled() || (sm && sm->view_created_in_no_grad)) {
    const bool base_requires_grad = self.requires_grad();
    AutogradMeta& m = materialize_meta(view);
    m.view_created_in_no_grad = true;
    m.no_grad_view_of_requires_grad = base_requires_grad;
    if (forward_ad::is_active()) {
      const Tensor* root = &self;
      if (sm && sm->view_base.defined())
        root = &sm->view_base;
      else if (sm && sm->fw_view_base.defined())
        root = &sm->fw_view_base;
      m.fw_view_base = *root;
    }
    return;
  }
  Tensor root = sm && sm->view_base.defined() ? sm->view_base : self;
  AutogradMeta& m = materialize_meta(view);
  m.view_base = std::move(root);
  m.attr_version = view._version();
}

void set_piece_view_base(const Tensor& self, const Tensor& piece) {
  if (AutogradMeta* m = get_meta(piece)) m->view_created_in_no_grad = false;
  set_view_base(self, piece);
}

void rebase_history(const Tensor& view, AutogradMeta& m, const std::shared_ptr<Node>& fn, TensorList fn_inputs) {
  int self_input = -1;
  for (size_t i = 0; i < fn_inputs.size(); ++i)
    if (fn_inputs[i].defined() && fn_inputs[i].is_same(view)) self_input = static_cast<int>(i);
  const uint32_t fn_output_nr = fn->add_input_metadata(view);
  Tensor base = m.view_base;
  auto cs = std::make_shared<CopySlices>(base, view, fn, fn_output_nr, self_input);
  cs->creation_trace = fn->creation_trace;
  AutogradMeta& bm = materialize_meta(base);
  bm.grad_fn = cs;
  bm.output_nr = cs->add_input_metadata(base);
  bm.requires_grad = false;
  // The view's own history is now "a piece of the new base": regenerate it
  // (which moves a retain_grad hook onto the regenerated node).
  if (m.retained_grad && m.grad_fn) m.grad_fn->remove_retain_grad_hook(m.output_nr);
  m.grad_fn = nullptr;
  m.attr_version = view._version() + 1;
  current_grad_fn(view, m);
}

void check_inplace_view(const Tensor& self, const char* op) {
  AutogradMeta* m = get_meta(self);
  if (m == nullptr) return;
  EMBER_CHECK(!m->view_created_in_no_grad, op,
              ": A view was created in no_grad mode and is being modified inplace with grad mode enabled. This view "
              "is a view of a Tensor that requires grad; given that the view was created in no_grad mode, its "
              "history cannot be tracked. Create the view with grad mode enabled, or clone() it first.");
  EMBER_CHECK(!(m->view_base.defined() && m->view_base.is_leaf() && m->view_base.requires_grad()), op,
              ": a view of a leaf Variable that requires grad is being used in an in-place operation.");
}

std::shared_ptr<Node> current_grad_fn(const Tensor& t, AutogradMeta& m) {
  if (!m.view_base.defined()) return m.grad_fn;
  const uint32_t version = t._version();
  if (m.attr_version == version) return m.grad_fn;
  const Tensor& base = m.view_base;
  std::lock_guard<std::mutex> g(m.mu);
  if (m.attr_version == version) return m.grad_fn;
  std::shared_ptr<Node> old_fn = m.grad_fn;
  const uint32_t old_nr = m.output_nr;
  if (!base.requires_grad()) {
    m.grad_fn = nullptr;
  } else {
    // A plain alias of the view's geometry, recorded as as_strided of the base.
    Tensor alias = make_view(base, t.sizes(), t.strides(), t.storage_offset());
    AutoGradMode on(true);
    record_as_strided(base, alias);
    AutogradMeta* am = get_meta(alias);
    m.grad_fn = am->grad_fn;
    m.output_nr = am->output_nr;
  }
  move_retain_grad_hook(m, old_fn, old_nr);
  m.attr_version = version;
  return m.grad_fn;
}

}  // namespace torch::autograd
