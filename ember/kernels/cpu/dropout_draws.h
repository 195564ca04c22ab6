#pragma once
// The draws behind dropout's keep bits, shared by dropout and the fused kernels that
// drop elements themselves (Note [Fused attention]): element i of one call is kept when
// draw i of the Philox stream (key, stream) is below `cut` (Note [Philox draws]), so a
// fused kernel that numbers its elements as the unfused tensor does keeps the same ones.
#include <cstdint>

#include "ember/core/namespace.h"

namespace torch::detail {

struct DropoutDraws {
  uint64_t key = 0, stream = 0;
  uint32_t cut = 0;
  bool keep_all = false;  // (1 - p) * 2^32 rounds to 2^32: every element is kept, no draw needed
};

// Dropout's product for one element: x scaled by `keep` where kept, else 0. A select of
// one width, so the loops over it vectorise (a branch on the bit mispredicts).
template <typename T>
inline T kept_times(uint32_t kept, T x, T keep) {
  return x * (kept != 0u ? keep : T(0));
}

// The key and stream of one call (two draws of the default generator) and the cut for p.
DropoutDraws next_dropout_draws(double p);

}  // namespace torch::detail
