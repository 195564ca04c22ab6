#pragma once
// DistributedDataParallel (torch.nn.parallel.DistributedDataParallel): wraps
// a module so that every process trains a replica and backward averages the
// gradients across the process group (Note [DDP buckets] in reducer.h).
// Parameters and buffers are broadcast from rank 0 at construction.
#include <memory>

#include "ember/core/arg.h"
#include "ember/distributed/algorithms/join.h"
#include "ember/distributed/ddp/comm_hooks.h"
#include "ember/nn/module.h"
#include "ember/nn/modules/container/any.h"
#include "ember/nn/pimpl.h"

namespace torch::distributed::ddp_detail {
class Reducer;
}

namespace torch::nn::parallel {

struct DistributedDataParallelOptions {
  // nullptr: the default process group.
  TORCH_ARG(std::shared_ptr<distributed::ProcessGroup>, process_group) = nullptr;
  // Broadcast rank 0's buffers (running statistics) before every forward.
  TORCH_ARG(bool, broadcast_buffers) = true;
  TORCH_ARG(double, bucket_cap_mb) = 25;
  TORCH_ARG(bool, find_unused_parameters) = false;
  // After each reduction, .grad is a view into its bucket (no copy back; the
  // next backward accumulates into the bucket's memory).
  TORCH_ARG(bool, gradient_as_bucket_view) = false;
  // The set of used parameters and the graph do not change between
  // iterations (Note [DDP static graph]): unused parameters are found once.
  TORCH_ARG(bool, static_graph) = false;
};

class DistributedDataParallelImpl : public Module, public distributed::algorithms::Joinable {
 public:
  template <typename ModuleType, typename = std::enable_if_t<!std::is_same_v<std::decay_t<ModuleType>, AnyModule>>>
  explicit DistributedDataParallelImpl(ModuleType module, DistributedDataParallelOptions options_ = {})
      : DistributedDataParallelImpl(AnyModule(std::move(module)), std::move(options_)) {}
  DistributedDataParallelImpl(AnyModule module, DistributedDataParallelOptions options_);

  // The wrapped module's forward; with gradient synchronization on (not in
  // no_sync()) and grad mode enabled, the next backward reduces gradients.
  template <typename... Args>
  Tensor forward(Args&&... args) {
    pre_forward();
    Tensor out = module_.forward(std::forward<Args>(args)...);
    post_forward({out});
    return out;
  }

  // While alive, backward accumulates gradients locally without communication.
  class NoSyncGuard {
   public:
    explicit NoSyncGuard(DistributedDataParallelImpl& ddp) : ddp_(ddp), prev_(ddp.require_backward_grad_sync_) {
      ddp.require_backward_grad_sync_ = false;
    }
    ~NoSyncGuard() { ddp_.require_backward_grad_sync_ = prev_; }
    NoSyncGuard(const NoSyncGuard&) = delete;
    NoSyncGuard& operator=(const NoSyncGuard&) = delete;

   private:
    DistributedDataParallelImpl& ddp_;
    bool prev_;
  };
  [[nodiscard]] std::unique_ptr<NoSyncGuard> no_sync() { return std::make_unique<NoSyncGuard>(*this); }

  // state: the process group the hook reduces over (nullptr: DDP's own).
  void register_comm_hook(std::shared_ptr<distributed::ProcessGroup> state, distributed::CommHook hook);
  // Any other state (PowerSGDState, a user's): hook(state&, bucket). A
  // shared_ptr is shared with the caller; a value is moved into DDP, which
  // keeps it for its lifetime (Python passes the object by reference).
  template <typename State, typename Hook,
            typename = std::enable_if_t<!std::is_convertible_v<State, std::shared_ptr<distributed::ProcessGroup>>>>
  void register_comm_hook(State state, Hook hook) {
    auto held = hold_state(std::move(state));
    register_bound_hook(
        [held, hook = std::move(hook)](distributed::GradBucket& bucket) mutable { return hook(*held, bucket); });
  }
  std::shared_ptr<Module> module() const { return module_.ptr(); }
  size_t num_buckets() const;
  // Each bucket's parameter indices (into parameters() that require grad), in
  // the order the buckets are reduced; changes once, at the bucket rebuild.
  std::vector<std::vector<size_t>> bucket_indices() const;
  // Python's _set_static_graph(): static_graph(true) after construction,
  // before the first iteration.
  void _set_static_graph();

  // Uneven inputs (Note [DDP join]): while the returned context is alive the
  // ranks train on their own numbers of batches; its destructor shadows the
  // others until all are done. divide_by_initial_world_size: joined ranks
  // count as contributing zeros (else gradients are averaged over the ranks
  // still training).
  [[nodiscard]] distributed::algorithms::Join join(bool divide_by_initial_world_size = true, bool enable = true,
                                                   bool throw_on_early_termination = false);
  std::unique_ptr<distributed::algorithms::JoinHook> join_hook() override;
  distributed::ProcessGroupPtr join_process_group() const override { return group_; }

  DistributedDataParallelOptions options;

 private:
  void pre_forward();
  void post_forward(const std::vector<Tensor>& outputs);
  void broadcast_coalesced(const std::vector<Tensor>& tensors, int64_t group_root = 0);
  // torch's _verify_param_shape_across_processes: every rank's parameters have
  // the same count, dtypes, shapes and requires_grad (Note [Trusted shapes]
  // relies on it).
  void verify_params_across_processes(const std::vector<Tensor>& params);
  // The highest group rank among those with `candidate` true (all-reduced).
  int64_t find_common_rank(bool candidate);
  // Whether the ranks still training reduce in this backward (Note [DDP join]).
  bool check_global_requires_backward_grad_sync(bool is_joined_rank);
  friend class DdpJoinHook;
  void register_bound_hook(std::function<distributed::Future(distributed::GradBucket&)> hook);
  template <typename T>
  static std::shared_ptr<T> hold_state(std::shared_ptr<T> s) {
    return s;
  }
  template <typename T>
  static std::shared_ptr<T> hold_state(T s) {
    return std::make_shared<T>(std::move(s));
  }

  AnyModule module_;
  std::shared_ptr<distributed::ProcessGroup> group_;
  std::shared_ptr<distributed::ddp_detail::Reducer> reducer_;
  bool require_backward_grad_sync_ = true;
  bool divide_by_initial_world_size_ = true;
};

TORCH_MODULE(DistributedDataParallel);

}  // namespace torch::nn::parallel
