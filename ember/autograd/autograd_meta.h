#pragma once
// Per-tensor autograd state, stored in TensorImpl's autograd slot.
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "ember/autograd/node.h"
#include "ember/core/object_pool.h"
#include "ember/core/tensor.h"

namespace torch::autograd {

// How a differentiable view came to be, which decides whether writing it in place may
// rewrite its history (LibTorch's names; Ember distinguishes the no-grad case).
enum class CreationMeta : uint8_t { DEFAULT, IN_CUSTOM_FUNCTION, MULTI_OUTPUT_NODE, NO_GRAD_MODE, INFERENCE_MODE };

struct AutogradMeta : AutogradMetaBase {
  bool requires_grad = false;  // set on leaves; non-leaves require grad through grad_fn
  bool retains_grad = false;
  Tensor grad;
  std::shared_ptr<Node> grad_fn;                                 // non-leaf: the node that produced this tensor
  std::weak_ptr<Node> grad_accumulator;                          // leaf: its AccumulateGrad, created lazily
  uint32_t output_nr = 0;                                        // which output of grad_fn this tensor is
  std::vector<std::function<Tensor(const Tensor&)>> leaf_hooks;  // register_hook on a leaf
  // retain_grad() on a non-leaf: a slot the grad_fn's hook writes into (shared,
  // so the hook need not own the tensor and no reference cycle forms).
  std::shared_ptr<Tensor> retained_grad;
  std::mutex mu;  // guards grad_accumulator creation and .grad updates

  // Differentiable views (Note [Views and in-place] in copy_slices.h): the root
  // base whose storage this view reads, and the version at which grad_fn was
  // last set; a different current version means the base (or another view of
  // it) was written in place and grad_fn must be regenerated from the base.
  Tensor view_base;
  uint32_t attr_version = 0;
  // A view created under no-grad of a tensor that requires grad: writing it in
  // place with grad mode on raises, as in PyTorch.
  bool view_created_in_no_grad = false;
  // Whether that view's base required grad: the view then reports requires_grad() (PyTorch's
  // rule for views), though as a leaf without an accumulator it passes no gradient back.
  bool no_grad_view_of_requires_grad = false;
  // Such a no-grad view made inside a dual level keeps its root base here
  // instead (view_base stays unset, so autograd still treats it as a no-grad
  // view): forward mode writes an in-place tangent through to the base, as
  // PyTorch, which tracks views whatever the grad mode. This is what lets
  // jacfwd/jvp differentiate a backward pass that ran without create_graph.
  Tensor fw_view_base;

  // Forward mode (Note [Forward-mode AD] in forward_ad.h): the tangent and the
  // generation of the dual level that set it (stale once that level closed).
  Tensor fw_grad;
  uint64_t fw_generation = 0;

  // LibTorch's DifferentiableViewMeta interface: whether this is a view autograd tracks
  // back to a base, and how it was created.
  bool has_bw_view() const { return view_base.defined() || view_created_in_no_grad; }
  CreationMeta get_creation_meta() const {
    return view_created_in_no_grad ? CreationMeta::NO_GRAD_MODE : CreationMeta::DEFAULT;
  }

  // Every recorded op's output gets one: pooled like TensorImpl.
  EMBER_POOLED_ALLOCATION(AutogradMeta)
};
// LibTorch keeps a view's autograd state in a subclass; Ember's AutogradMeta holds it for
// every tensor, so code that casts to DifferentiableViewMeta gets the same object.
using DifferentiableViewMeta = AutogradMeta;

// The tensor's meta, created on first use.
AutogradMeta& materialize_meta(const Tensor& t);
// The tensor's meta or null when it never had autograd state.
inline AutogradMeta* get_meta(const Tensor& t) {
  return static_cast<AutogradMeta*>(t.unsafeGetTensorImpl()->autograd_meta());
}

// The tensor's grad_fn, regenerated first when it is a view whose base was
// modified in place since (Note [Views and in-place]).
std::shared_ptr<Node> current_grad_fn(const Tensor& t, AutogradMeta& m);

// The edge a gradient for `t` must flow along: (grad_fn, output_nr) for
// non-leaves, (AccumulateGrad, 0) for leaves that require grad, invalid otherwise.
Edge gradient_edge(const Tensor& t);
// Makes `t` the output number `output_nr` of `fn` (records its metadata on fn).
void set_history(const Tensor& t, const std::shared_ptr<Node>& fn);
// retain_grad() belongs to the tensor, not to a node (as in PyTorch): installs
// the hook that writes m.retained_grad on m's current grad_fn, and after the
// tensor's history changed (an in-place op, a view regenerated from its
// written base) moves it there from the previous grad_fn, so .grad() is the
// gradient of the tensor's current value. Tensor hooks, by contrast, stay
// with the node they were registered on.
void install_retain_grad_hook(AutogradMeta& m);
void move_retain_grad_hook(AutogradMeta& m, const std::shared_ptr<Node>& old_fn, uint32_t old_nr);
// The leaf's AccumulateGrad node, created on first use.
std::shared_ptr<Node> grad_accumulator(const Tensor& t);

}  // namespace torch::autograd
