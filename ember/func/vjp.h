#pragma once
// func::vjp, as torch.func.vjp: f's outputs at `primals` and a function that
// maps cotangents (one per output, shaped as it) to the vector-Jacobian
// products with respect to every primal.
//   auto [out, vjp_fn, aux] = func::vjp(f, {x, w});
//   std::vector<Tensor> g = vjp_fn({ct});  // {ct^T d out / d x, ct^T d out / d w}
// vjp_fn may be called any number of times (the graph of f lives as long as
// it does), under vmap (vmap(vjp_fn) over a batch of cotangents runs one
// backward pass with batched gradients: how jacrev works), and under grad /
// vjp (its results are differentiable when the caller's graph runs through f
// or the cotangents require grad). vjp itself works inside vmap: each sample
// keeps its own graph (Note [grad under vmap] in grad.cpp).
// With has_aux, f returns {output, aux...}: the first entry is the only
// output, the others are returned as they are (detached). Without, every
// entry is an output. Outputs must be defined floating point or complex
// tensors; primals likewise.
#include <functional>
#include <vector>

#include "ember/core/tensor.h"
#include "ember/func/grad.h"

namespace torch::func {

using VjpFunction = std::function<std::vector<Tensor>(const std::vector<Tensor>& cotangents)>;

struct VjpResult {
  std::vector<Tensor> outputs;
  VjpFunction vjp_fn;
  std::vector<Tensor> aux;  // empty without has_aux
};

VjpResult vjp(const Function& f, const std::vector<Tensor>& primals, bool has_aux = false);

}  // namespace torch::func
