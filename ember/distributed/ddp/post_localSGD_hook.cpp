#include "ember/distributed/ddp/post_localSGD_hook.h"

#include "ember/core/error.h"
#include "ember/distributed/ddp/comm_hooks.h"

namespace torch::distributed::algorithms::ddp_comm_hooks::post_localSGD_hook {

PostLocalSGDState::PostLocalSGDState(ProcessGroupPtr process_group_, ProcessGroupPtr subgroup_,
                                     int64_t start_localSGD_iter_, bool post_local_gradient_allreduce_)
    : process_group(std::move(process_group_)),
      subgroup(std::move(subgroup_)),
      start_localSGD_iter(start_localSGD_iter_),
      post_local_gradient_allreduce(post_local_gradient_allreduce_) {
  EMBER_CHECK(start_localSGD_iter >= 0, "PostLocalSGDState: start_localSGD_iter must be >= 0, got ",
              start_localSGD_iter);
}

void PostLocalSGDState::maybe_increase_iter(const GradBucket& bucket) {
  if (bucket.is_last()) ++iter;
}

Future post_localSGD_hook(PostLocalSGDState& state, GradBucket& bucket) {
  if (state.iter < state.start_localSGD_iter) {
    state.maybe_increase_iter(bucket);
    return default_hooks::allreduce_hook(state.process_group, bucket);
  }
  if (!state.post_local_gradient_allreduce) return Future(bucket.buffer());
  EMBER_CHECK(state.subgroup != nullptr,
              "post_localSGD_hook: PostLocalSGDState.subgroup is None; the default (new_subgroups by CUDA devices "
              "per node) needs CUDA: pass a subgroup");
  EMBER_CHECK(state.subgroup != GroupMember::NON_GROUP_MEMBER(),
              "post_localSGD_hook: this rank is not a member of PostLocalSGDState.subgroup");
  return default_hooks::allreduce_hook(state.subgroup, bucket);
}

}  // namespace torch::distributed::algorithms::ddp_comm_hooks::post_localSGD_hook
