#pragma once
// ember::func: functorch-style function transforms, as torch.func.
//   grad(f)            the gradient of a scalar-valued f with respect to its inputs
//   grad_and_value(f)  the same, and f's value
//   vmap               ember::vmap (ember/vmap/vmap.h), re-exported
// They compose: vmap(grad(loss), {std::nullopt, 0, 0})({params, x, y}) gives
// the gradient of the loss of each sample (x[i], y[i]) with respect to the
// shared params, in one pass (per-sample gradients, as DP-SGD needs);
// grad(grad(f)) is a second derivative; grad of a function that uses vmap
// differentiates through it.
//
// f takes a list of tensors and returns a list whose first entry is the
// value: a 0-dim tensor (per sample, inside vmap). With has_aux, the entries
// after it are auxiliary outputs returned along (at least one is required);
// without, f returns exactly one tensor.
//   grad(f, argnums, has_aux)(inputs)           -> {d value / d inputs[argnums[k]]..., aux...}
//   grad_and_value(f, argnums, has_aux)(inputs) -> {gradients..., value, aux...}
// argnums: which inputs to differentiate (negative counts from the end; not
// empty, no repeats); the others are passed to f as they are.
//
// As torch.func.grad: the inputs need not require grad; grad mode is on
// inside f even under NoGradGuard; no tensor's .grad is touched; an input the
// value does not depend on gets zeros. The results do not keep the graph
// built inside f, except where the caller's own graph runs through f (an
// input, or a tensor f uses, that requires grad while grad mode is on): then
// they are differentiable with respect to those tensors, which is what
// grad(grad(f)) and autograd through grad(f) rely on. See Note [grad under
// vmap] in grad.cpp for how samples are kept apart.
#include <cstdint>
#include <functional>
#include <vector>

#include "ember/core/tensor.h"
#include "ember/vmap/vmap.h"

namespace torch::func {

using ember::vmap;
using Function = std::function<std::vector<Tensor>(const std::vector<Tensor>&)>;

Function grad(Function f, std::vector<int64_t> argnums = {0}, bool has_aux = false);
Function grad_and_value(Function f, std::vector<int64_t> argnums = {0}, bool has_aux = false);

// The one-tensor form of grad: f(x) is a 0-dim tensor; returns d f / d x.
std::function<Tensor(const Tensor&)> grad(std::function<Tensor(const Tensor&)> f);

}  // namespace torch::func
