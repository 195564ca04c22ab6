#pragma once
// The pieces ember::func's transforms share (internal; not in the umbrella):
// argnums checks, the physical/logical round trip of Note [grad under vmap]
// (grad.cpp), and the leaves a reverse-mode transform differentiates.
#include <cstdint>
#include <functional>
#include <string>
#include <unordered_set>
#include <vector>

#include "ember/autograd/node.h"
#include "ember/core/shape.h"
#include "ember/core/tensor.h"
#include "ember/func/grad.h"

namespace torch::func::detail {

// "(1, 2)" / "(0,)": argnums as torch.func prints them.
std::string list_str(const std::vector<int64_t>& v);

// argnums wrapped against the number of inputs, checked as torch.func does.
std::vector<size_t> resolve_argnums(const std::vector<int64_t>& argnums, size_t n, const char* op);

// The plain tensor at the bottom of a (possibly nested) batched tensor.
Tensor bottom(const Tensor& t);

// `t` as one plain tensor [B1, ..., BL, *logical]: its batch moved to the
// front at each level 1..levels where it is batched, expanded (stride 0)
// where it is not.
Tensor to_physical(const Tensor& t, int64_t levels);

// The inverse of to_physical: dim l-1 becomes the batch of level l.
Tensor to_logical(Tensor phys, int64_t levels);

// A detached copy of every level's physical tensor, batched as `t` is. A
// forward-mode tangent on the bottom tensor is kept (forward-over-reverse:
// hessian's jacfwd(jacrev) reads it after jacrev detached its results).
Tensor deep_detach(const Tensor& t);

// Whether the graph of `root` reaches a leaf that requires grad other than
// those whose AccumulateGrad nodes are in `own` (a tensor of the caller's).
bool reaches_other_leaves(const Tensor& root, const std::unordered_set<const autograd::Node*>& own);

// a + b: the shape of a Jacobian block (output dims, then input dims).
DimVector concat_shape(IntArrayRef a, IntArrayRef b);

inline bool is_differentiable_dtype(ScalarType t) { return is_floating_point(t) || is_complex(t); }

// The one-tensor form of a transform (grad, jacrev, jacfwd, hessian): x -> transform(f')({x})[0]
// where f' is f on the list form.
std::function<Tensor(const Tensor&)> one_tensor_form(std::function<Tensor(const Tensor&)> f,
                                                     const std::function<Function(Function)>& transform);

// The physical leaves a reverse-mode transform (grad, vjp) differentiates and
// what f sees of them (Note [grad under vmap], its "Leaves" paragraph).
struct Leaves {
  std::vector<Tensor> leaves;  // physical [B1, ..., BL, *logical]
  std::vector<Tensor> args;    // the inputs with the differentiated ones replaced by the leaves, logical
  std::unordered_set<const autograd::Node*> own;
  std::vector<autograd::Edge> own_edges;  // keeps the own AccumulateGrad nodes (and so their addresses) alive
  bool aliased = false;                   // some leaf is a view keeping the caller's graph
};
// `which` indexes `inputs`; `outer_grad` is the caller's grad mode. Must run
// with grad mode on. A forward-mode tangent of an input is carried over to
// its leaf.
Leaves make_leaves(const std::vector<Tensor>& inputs, const std::vector<size_t>& which, int64_t levels, bool outer_grad,
                   const char* op);

// `t` without its graph (when `keep` is false), its tangent kept.
Tensor maybe_detach(const Tensor& t, bool keep);

}  // namespace torch::func::detail
