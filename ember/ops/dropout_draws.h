#pragma once
// The draws behind dropout's keep bits, shared by dropout and the fused kernels that
// drop elements themselves (Note [Fused attention]): element i of one call is kept when
// draw i of the Philox stream (key, stream) is below `cut` (Note [Philox draws]), so a
// fused kernel that numbers its elements as the unfused tensor does keeps the same ones.
#include <cstdint>

namespace ember::detail {

struct DropoutDraws {
  uint64_t key = 0, stream = 0;
  uint32_t cut = 0;
  bool keep_all = false;  // (1 - p) * 2^32 rounds to 2^32: every element is kept, no draw needed
};

// The key and stream of one call (two draws of the default generator) and the cut for p.
DropoutDraws next_dropout_draws(double p);

}  // namespace ember::detail
