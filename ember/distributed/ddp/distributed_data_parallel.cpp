#include "ember/distributed/ddp/distributed_data_parallel.h"

#include <map>

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/distributed/ddp/reducer.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/shape/shape_ops.h"

namespace torch::nn::parallel {

DistributedDataParallelImpl::DistributedDataParallelImpl(AnyModule module, DistributedDataParallelOptions options_)
    : options(std::move(options_)), module_(std::move(module)) {
  group_ = options.process_group() ? options.process_group() : distributed::get_default_group();
  register_module("module", module_.ptr());
  std::vector<Tensor> params;
  for (const auto& p : module_.ptr()->parameters())
    if (p.requires_grad()) params.push_back(p);
  verify_params_across_processes(module_.ptr()->parameters());
  // Every replica starts from rank 0's state.
  std::vector<Tensor> state = module_.ptr()->parameters();
  for (const auto& b : module_.ptr()->buffers()) state.push_back(b);
  broadcast_coalesced(state);
  auto cap = static_cast<int64_t>(options.bucket_cap_mb() * 1024 * 1024);
  EMBER_CHECK(cap > 0, "DistributedDataParallel: bucket_cap_mb must be positive, got ", options.bucket_cap_mb());
  reducer_ = std::make_shared<distributed::ddp_detail::Reducer>(
      params, group_, cap, options.find_unused_parameters(), options.gradient_as_bucket_view(), options.static_graph());
  reducer_->install_hooks();
}

void DistributedDataParallelImpl::verify_params_across_processes(const std::vector<Tensor>& params) {
  // FNV-1a over every parameter's dtype, requires_grad, rank and sizes.
  uint64_t h = 1469598103934665603ull;
  auto mix = [&h](int64_t v) {
    for (int b = 0; b < 8; ++b) {
      h ^= static_cast<uint64_t>(v >> (8 * b)) & 0xff;
      h *= 1099511628211ull;
    }
  };
  for (const auto& p : params) {
    mix(static_cast<int64_t>(p.scalar_type()));
    mix(p.requires_grad());
    mix(p.dim());
    for (int64_t d : p.sizes()) mix(d);
  }
  Tensor mine = empty({2}, TensorOptions().dtype(kLong));
  mine.data_ptr<int64_t>()[0] = static_cast<int64_t>(params.size());
  mine.data_ptr<int64_t>()[1] = static_cast<int64_t>(h & 0x7fffffffffffffffull);
  int64_t n = distributed::get_world_size(group_), me = distributed::get_rank(group_);
  std::vector<Tensor> all;
  for (int64_t r = 0; r < n; ++r) all.push_back(empty({2}, TensorOptions().dtype(kLong)));
  distributed::all_gather(all, mine, group_);
  for (int64_t r = 0; r < n; ++r) {
    const int64_t* theirs = all[r].data_ptr<int64_t>();
    EMBER_CHECK(theirs[0] == mine.data_ptr<int64_t>()[0] && theirs[1] == mine.data_ptr<int64_t>()[1],
                "DistributedDataParallel: DDP expects the same model across all ranks, but rank ", r, " has ",
                theirs[0], " parameters while rank ", me, " has ", params.size(),
                theirs[0] == static_cast<int64_t>(params.size())
                    ? " parameters of different dtypes, shapes or requires_grad"
                    : " parameters");
  }
}

// One broadcast per dtype, of all the tensors flattened together.
void DistributedDataParallelImpl::broadcast_coalesced(const std::vector<Tensor>& tensors, int64_t group_root) {
  NoGradGuard no_grad;
  std::map<ScalarType, std::vector<Tensor>> by_dtype;
  for (const auto& t : tensors)
    if (t.defined() && t.numel() > 0) by_dtype[t.scalar_type()].push_back(t);
  int64_t root = distributed::get_global_rank(group_, group_root);
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
  // The collectives here and their order are what DdpJoinHook::main_hook shadows.
  distributed::WorkPtr joined = distributed::algorithms::Join::notify_join_context(*this);
  if (joined) {
    int64_t training = get_world_size(group_);
    if (!divide_by_initial_world_size_) {
      joined->wait();
      training = static_cast<int64_t>(joined->result().at(0).item<float>());
    }
    reducer_->set_divide_factor(training);
  } else {
    reducer_->set_divide_factor(get_world_size(group_));
  }
  if (GradMode::is_enabled()) reducer_->rebuild_buckets();
  if (options.broadcast_buffers()) {
    auto buffers = module_.ptr()->buffers();
    if (!buffers.empty()) broadcast_coalesced(buffers, _join_config.enable ? find_common_rank(true) : 0);
  }
  if (_join_config.enable) check_global_requires_backward_grad_sync(false);
}

int64_t DistributedDataParallelImpl::find_common_rank(bool candidate) {
  Tensor r = full({1}, Scalar(candidate ? distributed::get_rank(group_) : int64_t{-1}), TensorOptions().dtype(kLong));
  distributed::all_reduce(r, distributed::ReduceOp::MAX, group_);
  int64_t rank = r.item<int64_t>();
  EMBER_CHECK(rank >= 0, "DistributedDataParallel join: no rank was a candidate for the common rank");
  return rank;
}

bool DistributedDataParallelImpl::check_global_requires_backward_grad_sync(bool is_joined_rank) {
  bool sync = !is_joined_rank && require_backward_grad_sync_ && GradMode::is_enabled() && is_training();
  Tensor t = full({1}, Scalar(sync ? 1 : 0), TensorOptions().dtype(kInt));
  distributed::all_reduce(t, distributed::ReduceOp::SUM, group_);
  return t.item<int32_t>() != 0;
}

// What a joined rank runs for each iteration the others still train.
class DdpJoinHook : public distributed::algorithms::JoinHook {
 public:
  explicit DdpJoinHook(DistributedDataParallelImpl& ddp) : ddp_(ddp) {}
  void main_hook() override {
    ddp_.reducer_->rebuild_buckets();
    if (ddp_.options.broadcast_buffers()) {
      auto buffers = ddp_.module_.ptr()->buffers();
      if (!buffers.empty()) ddp_.broadcast_coalesced(buffers, ddp_.find_common_rank(false));
    }
    if (ddp_.check_global_requires_backward_grad_sync(true)) ddp_.reducer_->shadow_backward();
  }
  // Every replica ends with the parameters of the last rank to join.
  void post_hook(bool is_last_joiner) override {
    int64_t root = ddp_.find_common_rank(is_last_joiner);
    std::vector<Tensor> state = ddp_.module_.ptr()->parameters();
    for (const auto& b : ddp_.module_.ptr()->buffers()) state.push_back(b);
    ddp_.broadcast_coalesced(state, root);
  }

 private:
  DistributedDataParallelImpl& ddp_;
};

std::unique_ptr<distributed::algorithms::JoinHook> DistributedDataParallelImpl::join_hook() {
  return std::make_unique<DdpJoinHook>(*this);
}

distributed::algorithms::Join DistributedDataParallelImpl::join(bool divide_by_initial_world_size, bool enable,
                                                                bool throw_on_early_termination) {
  divide_by_initial_world_size_ = divide_by_initial_world_size;
  return distributed::algorithms::Join({this}, enable, throw_on_early_termination);
}

void DistributedDataParallelImpl::_set_static_graph() {
  options.static_graph(true);
  reducer_->set_static_graph();
}

std::vector<std::vector<size_t>> DistributedDataParallelImpl::bucket_indices() const {
  return reducer_->bucket_indices();
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
