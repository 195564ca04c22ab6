#pragma once
// torch.distributed.pipeline.sync.checkpoint.is_recomputing: whether the
// calling thread is recomputing a checkpointed micro-batch in backward (Pipe's
// checkpoint option), so layers with side effects in forward (DeferredBatchNorm)
// do them once per micro-batch.
#include "ember/core/namespace.h"

namespace torch::distributed::pipeline::sync {

bool is_recomputing();

namespace detail {
// Marks the thread as recomputing while alive (when `recomputing`).
class RecomputingGuard {
 public:
  explicit RecomputingGuard(bool recomputing);
  ~RecomputingGuard();
  RecomputingGuard(const RecomputingGuard&) = delete;
  RecomputingGuard& operator=(const RecomputingGuard&) = delete;

 private:
  bool previous_;
};
}  // namespace detail

}  // namespace torch::distributed::pipeline::sync
