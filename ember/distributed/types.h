#pragma once
// torch.distributed's small shared vocabulary: ReduceOp and the timeouts.
#include <chrono>
#include <cstdint>

#include "ember/core/namespace.h"

namespace torch::distributed {

// torch.distributed.ReduceOp. AVG divides a SUM by the group's size
// (floating and complex tensors only).
enum class ReduceOp { SUM, AVG, PRODUCT, MIN, MAX, BAND, BOR, BXOR };
const char* reduce_op_name(ReduceOp op);

// torch.distributed.Backend's names (init_process_group takes the string).
struct Backend {
  static constexpr const char* UNDEFINED = "undefined";
  static constexpr const char* GLOO = "gloo";
  static constexpr const char* NCCL = "nccl";
  static constexpr const char* MPI = "mpi";
};

// A timeout of zero means "the process group's (or store's) own timeout".
constexpr std::chrono::milliseconds kNoTimeout{0};
// torch.distributed.default_pg_timeout: 30 minutes.
constexpr std::chrono::milliseconds default_pg_timeout{std::chrono::minutes(30)};

}  // namespace torch::distributed
