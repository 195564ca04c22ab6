#pragma once
// The post-local-SGD hook (torch.distributed.algorithms.ddp_comm_hooks.
// post_localSGD_hook): global all-reduce for the first start_localSGD_iter
// iterations, then all-reduce within `subgroup` only (or none at all), as the
// gradient half of post-local SGD; the model averaging half is the user's
// (torch's PeriodicModelAverager).
#include "ember/distributed/ddp/future.h"
#include "ember/distributed/ddp/grad_bucket.h"
#include "ember/distributed/distributed_c10d.h"

namespace torch::distributed::algorithms::ddp_comm_hooks::post_localSGD_hook {

class PostLocalSGDState {
 public:
  // subgroup nullptr raises at the first local step: torch's default
  // (new_subgroups by CUDA devices per node) has no CPU meaning.
  PostLocalSGDState(ProcessGroupPtr process_group, ProcessGroupPtr subgroup, int64_t start_localSGD_iter,
                    bool post_local_gradient_allreduce = true);
  void maybe_increase_iter(const GradBucket& bucket);

  ProcessGroupPtr process_group;
  ProcessGroupPtr subgroup;
  int64_t start_localSGD_iter;
  bool post_local_gradient_allreduce;
  int64_t iter = 0;
};

Future post_localSGD_hook(PostLocalSGDState& state, GradBucket& bucket);

}  // namespace torch::distributed::algorithms::ddp_comm_hooks::post_localSGD_hook
