#pragma once
// In-place writes through views of tensors that are in a graph.
// Note [Views and in-place]
// A differentiable view (view, select, slice, permute, expand, as_strided, ...
// created with grad mode on) remembers its root base in its AutogradMeta
// (`view_base`). When an op writes the view in place, the op's node `fn` must
// not become the view's history alone: the base's values changed too. So, as
// PyTorch does (rebase_history):
//   - the base's grad_fn becomes CopySlices(base, view geometry, fn), whose
//     first edge points at the base's old history and whose other edges are
//     fn's edges for its other inputs;
//   - the view's grad_fn is regenerated as AsStridedBackward0 of the base.
// Any in-place write to the base or one of its views bumps the shared storage
// version, so a view whose `attr_version` differs from the current version
// regenerates its grad_fn from the base on next use (current_grad_fn).
// CopySlices::apply takes the base's gradient, runs fn on the slice the view
// covers, puts fn's gradient for the view's old value back into that slice
// (zero when fn has none: the old values were overwritten) and passes fn's
// other gradients through. It is written with differentiable ops, so
// create_graph works through it.
#include "ember/autograd/autograd_meta.h"

namespace torch::autograd {

class CopySlices : public Node {
 public:
  // `fn` wrote `view` (a view of `base`); `fn_output_nr` is the view's output
  // number on fn and `self_input` which of fn's inputs was the view's old value
  // (-1 when fn does not read it, as for fill_ and copy_).
  CopySlices(const Tensor& base, const Tensor& view, std::shared_ptr<Node> fn, uint32_t fn_output_nr, int self_input);
  variable_list apply(variable_list&& grads) override;
  std::string name() const override { return "CopySlices"; }
  void release_variables() override { fn_->release_variables(); }
  const std::shared_ptr<Node>& fn() const { return fn_; }

 private:
  DimVector base_sizes_, base_strides_, view_sizes_, view_strides_;
  int64_t view_offset_ = 0;  // relative to the base's storage offset
  std::shared_ptr<Node> fn_;
  uint32_t fn_output_nr_ = 0;
  int self_input_ = -1;
};

// Marks `view` (just created from `self` by a view op) as a view of self's root
// base; views created under no-grad of a tensor that requires grad are only
// flagged (Note [Views and in-place]).
void set_view_base(const Tensor& self, const Tensor& view);
// The same for a piece of a multi-output view cut below autograd and recorded
// afterwards (Note [Multi-output views] in derivatives/shape_grad.h): clears
// the no-grad flag the cut left, then marks it as set_view_base would have.
void set_piece_view_base(const Tensor& self, const Tensor& piece);
// record() calls this for an output that is an existing differentiable view:
// `fn` wrote it in place; `fn_inputs` are fn's forward inputs.
void rebase_history(const Tensor& view, AutogradMeta& m, const std::shared_ptr<Node>& fn, TensorList fn_inputs);
// Raises when `self` may not be written in place with grad mode on: a view of a
// leaf that requires grad, or a view created in no-grad mode of such a tensor.
void check_inplace_view(const Tensor& self, const char* op);

}  // namespace torch::autograd
