#pragma once
// The DDP reducer. Note [DDP buckets]
// Parameters are grouped into buckets of at most bucket_cap bytes (one dtype
// each) in reverse registration order, roughly the order backward produces
// their gradients. A post-hook on each parameter's AccumulateGrad node copies
// the fresh gradient into its bucket's flat buffer; when a bucket is full it
// goes to the communication hook (all-reduce by default) asynchronously, so
// communication overlaps the rest of backward. Buckets launch in index order
// on every rank, so the ranks' collectives match. When the last bucket has
// launched, the hook that launched it waits for all of them and writes the
// averaged gradients back into .grad, before backward returns.
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "ember/autograd/node.h"
#include "ember/distributed/ddp/comm_hooks.h"

namespace torch::distributed::ddp_detail {

class Reducer : public std::enable_shared_from_this<Reducer> {
 public:
  Reducer(std::vector<Tensor> params, ProcessGroupPtr group, int64_t bucket_bytes_cap, bool find_unused_parameters,
          bool gradient_as_bucket_view = false);
  // Installs the hooks (they hold the reducer weakly).
  void install_hooks();
  // Called by forward when gradients will be synchronized: the next backward reduces.
  void prepare_for_backward(const std::vector<Tensor>& outputs);
  // The hook with its state bound: called once per bucket and iteration.
  using BoundHook = std::function<Future(GradBucket& bucket)>;
  void register_comm_hook(BoundHook hook);
  size_t num_buckets() const { return buckets_.size(); }

 private:
  struct Bucket {
    std::vector<size_t> params;
    std::vector<int64_t> offsets;
    Tensor flat;
    size_t pending = 0;
    std::optional<Future> future;
  };
  void autograd_hook(size_t index);
  void mark_ready(size_t index);
  void launch_ready_buckets();
  void finalize();

  std::mutex mu_;
  std::vector<Tensor> params_;
  std::vector<std::shared_ptr<autograd::Node>> accumulators_;  // kept alive so the hooks stay
  ProcessGroupPtr group_;
  bool find_unused_;
  bool grad_as_view_;
  std::vector<Bucket> buckets_;
  std::vector<size_t> bucket_of_, slot_of_;
  BoundHook hook_;
  bool hook_registered_ = false;
  // Per iteration.
  bool expect_hooks_ = false;
  bool first_hook_ = true;
  size_t next_bucket_ = 0;
  std::vector<bool> ready_;
  std::vector<bool> unused_;
  std::vector<int32_t> used_;
};

}  // namespace torch::distributed::ddp_detail
