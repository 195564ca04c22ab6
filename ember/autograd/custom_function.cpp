#include "ember/autograd/custom_function.h"

#include "ember/autograd/forward_ad.h"

#include <cstdlib>

#include "ember/autograd/copy_slices.h"
#include "ember/ops/shape/view.h"

namespace torch::autograd {

std::string demangle_type_name(const char* mangled) {
  int status = 0;
  std::unique_ptr<char, decltype(&std::free)> d(abi::__cxa_demangle(mangled, nullptr, nullptr, &status), &std::free);
  return status == 0 && d ? std::string(d.get()) : std::string(mangled);
}

variable_list AutogradContext::get_saved_variables() const {
  EMBER_CHECK(!has_freed_buffers_,
              "get_saved_variables: Trying to backward through the graph a second time (or "
              "directly access saved tensors after they have already been freed). Specify retain_graph=true if you "
              "need to backward through the graph a second time.");
  auto node = node_.lock();
  variable_list out;
  for (const SavedVariable& s : saved_) out.push_back(s.unpack(node.get()));
  return out;
}

void AutogradContext::mark_dirty(const variable_list& inputs) {
  for (const Tensor& t : inputs) dirty_.insert(t.unsafeGetTensorImpl());
}

void AutogradContext::mark_non_differentiable(const variable_list& outputs) {
  for (const Tensor& t : outputs) non_differentiable_.insert(t.unsafeGetTensorImpl());
}

bool AutogradContext::needs_input_grad(size_t i) const {
  EMBER_CHECK(i < needs_input_grad_.size(), "needs_input_grad: index ", i, " out of range for ",
              needs_input_grad_.size(), " forward arguments");
  return needs_input_grad_[i];
}

void AutogradContext::save_variables(const variable_list& outputs) {
  saved_.clear();
  for (const Tensor& t : to_save_) {
    bool is_output = false;
    for (const Tensor& o : outputs) is_output |= t.defined() && o.is_same(t);
    saved_.emplace_back(t, is_output);
  }
  to_save_.clear();
}

void check_no_tangents(const variable_list& inputs) {
  if (!forward_ad::is_active()) return;
  for (const Tensor& t : inputs)
    EMBER_CHECK(!forward_ad::has_tangent(t),
                "Function::apply: an input has a forward-mode tangent, but custom "
                "autograd Functions have no JVP (forward-mode AD is not implemented for them, as in LibTorch); "
                "write the function with Ember ops instead, whose tangents propagate");
}

void wrap_outputs(const std::shared_ptr<Node>& node, AutogradContext& ctx, const variable_list& inputs,
                  variable_list& outputs, bool is_executable) {
  for (Tensor& out : outputs) {
    if (!out.defined()) {
      if (is_executable) node->add_input_metadata_undefined();
      continue;
    }
    const TensorImpl* impl = out.unsafeGetTensorImpl();
    bool is_input = false;
    for (const Tensor& in : inputs) is_input |= in.defined() && in.unsafeGetTensorImpl() == impl;
    const bool dirty = ctx.dirty_.count(impl) != 0;
    // An input returned unchanged is wrapped in a fresh view so the input keeps its own history.
    if (is_input && !dirty) out = make_view(out, out.sizes(), out.strides(), out.storage_offset());
    if (!is_executable) continue;
    // Outputs marked non-differentiable, and those of an integer or bool dtype (which
    // cannot require grad, as in PyTorch), get no history. Their metadata is still
    // recorded so backward sees zeros for them when grads are materialized, as LibTorch.
    if (ctx.non_differentiable_.count(impl) || !(out.is_floating_point() || out.is_complex())) {
      node->add_input_metadata(out);
      continue;
    }
    if (dirty) {
      check_inplace_view(out, "Function (mark_dirty)");
      EMBER_CHECK(!(out.is_leaf() && out.requires_grad()),
                  "a leaf Variable that requires grad is being used in an in-place operation.");
      AutogradMeta* m = get_meta(out);
      if (m != nullptr && m->view_base.defined()) {  // a dirty view: Note [Views and in-place]
        rebase_history(out, *m, node, inputs);
        continue;
      }
    }
    set_history(out, node);
  }
  ctx.save_variables(outputs);
}

}  // namespace torch::autograd
