#pragma once
// vmap's randomness policy (torch.func.vmap's `randomness` argument): what a
// random op called inside the mapped function does at that vmap level.
#include <cstdint>
#include <string_view>

#include "ember/core/namespace.h"

namespace torch {

enum class Randomness {
  Error,      // refuse random ops (the default)
  Different,  // every sample draws its own numbers
  Same,       // one draw shared by every sample
};

// "error", "different" or "same" (raises PyTorch's error for anything else).
Randomness parse_randomness(std::string_view name);
const char* randomness_name(Randomness r);

namespace batching {
// The randomness of the vmap running at `level` on this thread
// (1 <= level <= current_level()).
Randomness level_randomness(int64_t level);
}  // namespace batching

}  // namespace torch
