#pragma once
// Optimizer per-parameter state to bytes and back (for ZeroRedundancyOptimizer's
// consolidation across ranks): the state describes itself through
// StateVisitor (Note [Optimizer state as named values]); the bytes carry each
// field's name, kind and value, and the reader checks every length against
// the bytes there are, so a peer's garbage raises instead of reading past.
#include <cstdint>
#include <memory>
#include <vector>

#include "ember/optim/optimizer.h"

namespace torch::distributed::optim::detail {

// Appends state's fields to out.
void encode_state(::torch::optim::OptimizerParamState& state, std::vector<uint8_t>& out);
// Reads fields written by encode_state into state (a fresh state of the same
// optimizer kind) from bytes[at...]; advances at.
void decode_state(const std::vector<uint8_t>& bytes, size_t& at, ::torch::optim::OptimizerParamState& state);

}  // namespace torch::distributed::optim::detail
