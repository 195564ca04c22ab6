#pragma once
// func::jvp, as torch.func.jvp: f's outputs at `primals` and the
// Jacobian-vector products J(primals) * tangents, one per output, computed in
// the same forward pass with forward-mode AD (dual tensors,
// autograd/forward_ad.h), not by double backward.
//   auto [out, jvp_out, aux] = func::jvp(f, {x}, {t});
// tangents: one per primal, same shape; the primals must be floating point or
// complex. With has_aux, f returns {output, aux...} (the first entry is the
// only output). Composes with vmap (in either argument: jacfwd is vmap over
// jvp with basis tangents, Note [jvp under vmap] in jvp.cpp) and runs over
// reverse mode (jvp of a function using grad/vjp/jacrev: hessian). One dual
// level at a time, as PyTorch 1.13's forward AD: jvp inside jvp raises.
// Outputs keep the caller's graph (jvp is differentiable by reverse mode).
#include <vector>

#include "ember/core/tensor.h"
#include "ember/func/grad.h"

namespace torch::func {

struct JvpResult {
  std::vector<Tensor> outputs;
  std::vector<Tensor> tangents;  // J * tangents, one per output
  std::vector<Tensor> aux;       // empty without has_aux
};

JvpResult jvp(const Function& f, const std::vector<Tensor>& primals, const std::vector<Tensor>& tangents,
              bool has_aux = false);

}  // namespace torch::func
