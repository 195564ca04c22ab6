#pragma once
// The batch size of each running vmap level on this thread. A transform that
// runs inside vmap and must give every sample its own copy of an input that
// is not batched at some level (func::grad's per-sample leaves) reads the
// size here: nothing else in scope may be batched at that level.
#include <cstdint>

#include "ember/core/namespace.h"

namespace torch::batching {

// The batch size of the vmap running at `level` on this thread
// (1 <= level <= current_level()).
int64_t level_batch_size(int64_t level);

}  // namespace torch::batching
