#pragma once
// func::jacrev, as torch.func.jacrev: the Jacobian of f with respect to the
// inputs at `argnums`, by reverse mode: one vjp of f, then vmap of its vjp_fn
// over the standard basis of all outputs at once (one backward pass with a
// batch of unit cotangents, not a loop over rows).
//   jacrev(f, argnums, has_aux)(inputs) -> {J[0][0], J[0][1], ..., J[1][0], ..., aux...}
// J[i][j] = d outputs[i] / d inputs[argnums[j]], shaped
// outputs[i].sizes() + inputs[argnums[j]].sizes(); output-major, as
// torch.func's nested result flattens. With has_aux, f returns
// {output, aux...}: one output, the aux entries returned after the
// Jacobians. Composes with vmap (per-sample Jacobians), with itself
// (jacrev(jacrev(f)): second derivatives) and with jacfwd (hessian).
#include <cstdint>
#include <vector>

#include "ember/func/grad.h"

namespace torch::func {

Function jacrev(Function f, std::vector<int64_t> argnums = {0}, bool has_aux = false);

// The one-tensor form: f(x) is one tensor; returns d f / d x.
std::function<Tensor(const Tensor&)> jacrev(std::function<Tensor(const Tensor&)> f);

}  // namespace torch::func
