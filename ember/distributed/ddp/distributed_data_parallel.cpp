#include "ember/distributed/ddp/distributed_data_parallel.h"

#include <map>

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/distributed/ddp/reducer.h"
#include "ember/ops/shape/shape_ops.h"

namespace torch::nn::parallel {

DistributedDataParallelImpl::DistributedDataParallelImpl(AnyModule module, DistributedDataParallelOptions options_)
    : options(std::move(options_)), module_(std::move(module)) {
  group_ = options.process_group() ? options.process_group() : distributed::get_default_group();
  register_module("module", module_.ptr());
  std::vector<Tensor> params;
  for (const auto& p : module_.ptr()->parameters())
    if (p.requires_grad()) params.push_back(p);
  // Every replica starts from rank 0's state.
  std::vector<Tensor> state = module_.ptr()->parameters();
  for (const auto& b : module_.ptr()->buffers()) state.push_back(b);
  broadcast_coalesced(state);
  auto cap = static_cast<int64_t>(options.bucket_cap_mb() * 1024 * 1024);
  EMBER_CHECK(cap > 0, "DistributedDataParallel: bucket_cap_mb must be positive, got ", options.bucket_cap_mb());
  reducer_ = std::make_shared<distributed::ddp_detail::Reducer>(params, group_, cap, options.find_unused_parameters(),
                                                                options.gradient_as_bucket_view());
  reducer_->install_hooks();
}

// One broadcast per dtype, of all the tensors flattened together.
void DistributedDataParallelImpl::broadcast_coalesced(const std::vector<Tensor>& tensors) {
  NoGradGuard no_grad;
  std::map<ScalarType, std::vector<Tensor>> by_dtype;
  for (const auto& t : tensors)
    if (t.defined() && t.numel() > 0) by_dtype[t.scalar_type()].push_back(t);
  int64_t root = distributed::get_global_rank(group_, 0);
  for (auto& [dtype, list] : by_dtype) {
    std::vector<Tensor> flat;
    for (const auto& t : list) flat.push_back(t.reshape({-1}));
    Tensor all = cat(flat, 0);
    distributed::broadcast(all, root, group_);
    int64_t at = 0;
    for (const auto& t : list) {
      t.copy_(all.narrow(0, at, t.numel()).view(t.sizes()));
      at += t.numel();
    }
  }
}

void DistributedDataParallelImpl::pre_forward() {
  if (options.broadcast_buffers()) {
    auto buffers = module_.ptr()->buffers();
    if (!buffers.empty()) broadcast_coalesced(buffers);
  }
}

void DistributedDataParallelImpl::post_forward(const std::vector<Tensor>& outputs) {
  if (GradMode::is_enabled() && require_backward_grad_sync_ && is_training()) reducer_->prepare_for_backward(outputs);
}

void DistributedDataParallelImpl::register_comm_hook(std::shared_ptr<distributed::ProcessGroup> state,
                                                     distributed::CommHook hook) {
  EMBER_CHECK(hook != nullptr, "register_comm_hook: the hook is empty");
  auto group = state ? std::move(state) : group_;
  reducer_->register_comm_hook([group, hook = std::move(hook)](distributed::GradBucket& b) { return hook(group, b); });
}

void DistributedDataParallelImpl::register_bound_hook(
    std::function<distributed::Future(distributed::GradBucket&)> hook) {
  reducer_->register_comm_hook(std::move(hook));
}

size_t DistributedDataParallelImpl::num_buckets() const { return reducer_->num_buckets(); }

}  // namespace torch::nn::parallel
