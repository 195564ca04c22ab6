#pragma once
// DDP communication hooks (torch.distributed.algorithms.ddp_comm_hooks):
// each reduces one GradBucket across the process group and returns the
// averaged flat gradient as a Future.
#include <functional>

#include "ember/distributed/ddp/future.h"
#include "ember/distributed/ddp/grad_bucket.h"
#include "ember/distributed/distributed_c10d.h"

namespace torch::distributed {

// The hook type DistributedDataParallel::register_comm_hook takes: state is
// the process group (nullptr: the default group).
using CommHook = std::function<Future(const ProcessGroupPtr& state, GradBucket& bucket)>;

namespace algorithms::ddp_comm_hooks::default_hooks {

// DDP's default: all-reduce the bucket and divide by the world size.
Future allreduce_hook(const ProcessGroupPtr& process_group, GradBucket& bucket);
// All-reduce in float16 (half the bytes), then back to the bucket's dtype.
Future fp16_compress_hook(const ProcessGroupPtr& process_group, GradBucket& bucket);
// All-reduce in bfloat16.
Future bf16_compress_hook(const ProcessGroupPtr& process_group, GradBucket& bucket);

}  // namespace algorithms::ddp_comm_hooks::default_hooks
}  // namespace torch::distributed
