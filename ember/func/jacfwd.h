#pragma once
// func::jacfwd, as torch.func.jacfwd: the Jacobian of f with respect to the
// inputs at `argnums`, by forward mode: vmap of jvp over the standard basis
// of all differentiated inputs at once (one forward pass with a batch of unit
// tangents, not a loop over columns). Same calling convention and result
// layout as jacrev (jacrev.h). One forward-AD level at a time (PyTorch 1.13's
// limit): jacfwd of a function that itself uses jvp/jacfwd raises.
#include <cstdint>
#include <vector>

#include "ember/func/grad.h"

namespace torch::func {

Function jacfwd(Function f, std::vector<int64_t> argnums = {0}, bool has_aux = false);

// The one-tensor form: f(x) is one tensor; returns d f / d x.
std::function<Tensor(const Tensor&)> jacfwd(std::function<Tensor(const Tensor&)> f);

}  // namespace torch::func
