#pragma once
// torch.linspace's float32 values bit for bit, for the frequency grids of the
// filter banks (see torch_linspace.cpp for why Ember's own linspace differs).
#include <cstdint>

#include "ember/core/tensor.h"

namespace torch::audio::functional::detail {

Tensor torch_linspace_f32(double start, double end, int64_t steps);

}  // namespace torch::audio::functional::detail
