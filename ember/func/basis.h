#pragma once
// The standard basis jacrev and jacfwd push through vjp / jvp (internal).
// Note [One basis for all tensors]: as functorch, the unit vectors of all the
// tensors (jacrev: outputs, jacfwd: differentiated inputs) are taken
// together, M = sum of their numels: vectors[i] is [M, *tensors[i].sizes()],
// whose rows offsets[i] .. offsets[i] + numels[i] are the identity and the
// others zero. So one vmap over M gives every tensor's Jacobian block at
// once, and block i is rows offsets[i] .. of the result.
#include <cstdint>
#include <vector>

#include "ember/core/tensor.h"

namespace torch::func::detail {

struct StandardBasis {
  explicit StandardBasis(const std::vector<Tensor>& tensors);
  std::vector<Tensor> vectors;
  std::vector<int64_t> offsets, numels;
  int64_t total = 0;
};

}  // namespace torch::func::detail
