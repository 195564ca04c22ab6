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
//
// Note [DDP bucket rebuild]
// As torch's Reducer, the first synchronized backward records the order in
// which gradients became ready; the next forward rebuilds the buckets in that
// order (rank 0's order, broadcast, so every rank agrees), so that each bucket
// fills as early as possible. Not done with find_unused_parameters (the order
// may change between iterations) unless the graph is static.
//
// Note [DDP static graph]
// static_graph: the first iteration finds the unused parameters as
// find_unused_parameters does (graph walk + all-reduced used map); later
// iterations reuse that set without walking the graph or reducing the map.
//
// Note [DDP join]
// A rank that ran out of inputs (Join, algorithms/join.h) shadows the others'
// collectives: shadow_backward runs the same hooks on zero buckets in the
// same order, and the used-map reduction, so the non-joined ranks' reductions
// complete; the divide factor is the number of ranks still training unless
// divide_by_initial_world_size.
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
          bool gradient_as_bucket_view = false, bool static_graph = false);
  // Installs the hooks (they hold the reducer weakly).
  void install_hooks();
  // Called by forward when gradients will be synchronized: the next backward reduces.
  void prepare_for_backward(const std::vector<Tensor>& outputs);
  // The hook with its state bound: called once per bucket and iteration.
  using BoundHook = std::function<Future(GradBucket& bucket)>;
  void register_comm_hook(BoundHook hook);
  size_t num_buckets() const { return buckets_.size(); }
  // Each bucket's parameter indices, in bucket order.
  std::vector<std::vector<size_t>> bucket_indices() const;

  // Rebuilds the buckets once, after the first synchronized backward (Note
  // [DDP bucket rebuild]); a collective, so every rank calls it at the same
  // iteration. Returns whether it rebuilt.
  bool rebuild_buckets();
  void set_static_graph();
  bool static_graph() const { return static_graph_; }
  // What the default hook divides the summed gradients by (Note [DDP join]).
  void set_divide_factor(int64_t factor);
  // A joined rank's part of one backward: zero buckets through the hook.
  void shadow_backward();

 private:
  struct Bucket {
    std::vector<size_t> params;
    std::vector<int64_t> offsets;
    Tensor flat;
    size_t pending = 0;
    std::optional<Future> future;
  };
  // Buckets from the parameters in `order`, at most the cap each (the first 1 MiB).
  void build_buckets(const std::vector<size_t>& order);
  void autograd_hook(size_t index);
  void mark_ready(size_t index);
  void launch_ready_buckets();
  void finalize();
  std::vector<int32_t> reduce_used_map(const std::vector<int32_t>& used);
  bool finds_unused() const { return find_unused_ || (static_graph_ && num_iterations_ == 0); }

  std::mutex mu_;
  std::vector<Tensor> params_;
  std::vector<std::shared_ptr<::torch::autograd::Node>> accumulators_;  // kept alive so the hooks stay
  ProcessGroupPtr group_;
  int64_t bucket_bytes_cap_;
  bool find_unused_;
  bool grad_as_view_;
  bool static_graph_;
  std::vector<Bucket> buckets_;
  std::vector<size_t> bucket_of_, slot_of_;
  BoundHook hook_;
  bool hook_registered_ = false;
  int64_t divide_factor_;
  // Across iterations.
  int64_t num_iterations_ = 0;  // synchronized backwards finished (or shadowed)
  bool rebuilt_ = false;
  std::vector<size_t> ready_order_;            // the first synchronized backward's
  std::vector<bool> static_unused_;            // static graph: this rank's unused parameters
  std::vector<int32_t> static_globally_used_;  // static graph: used on some rank
  // Per iteration.
  bool expect_hooks_ = false;
  bool first_hook_ = true;
  size_t next_bucket_ = 0;
  std::vector<bool> ready_;
  std::vector<bool> unused_;
  std::vector<int32_t> used_;
};

}  // namespace torch::distributed::ddp_detail
