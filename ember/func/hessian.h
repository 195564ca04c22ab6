#pragma once
// func::hessian, as torch.func.hessian: jacfwd(jacrev(f, argnums), argnums)
// (forward over reverse). f returns one tensor (often 0-dim);
//   hessian(f, argnums)(inputs) -> {H[0][0], H[0][1], ..., H[1][0], ...}
// H[i][j] = d^2 f / d inputs[argnums[i]] d inputs[argnums[j]], shaped
// f.sizes() + inputs[argnums[i]].sizes() + inputs[argnums[j]].sizes().
#include <cstdint>
#include <vector>

#include "ember/func/grad.h"

namespace torch::func {

Function hessian(Function f, std::vector<int64_t> argnums = {0});

// The one-tensor form.
std::function<Tensor(const Tensor&)> hessian(std::function<Tensor(const Tensor&)> f);

}  // namespace torch::func
