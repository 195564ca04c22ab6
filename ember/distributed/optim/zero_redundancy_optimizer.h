#pragma once
// ZeroRedundancyOptimizer (torch.distributed.optim.ZeroRedundancyOptimizer):
// wraps an optimizer so that each rank keeps the state of only its shard of
// the parameters (ZeRO stage 1). step() updates the local shard, then every
// rank broadcasts its shard's parameters so all replicas stay equal.
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "ember/distributed/algorithms/join.h"
#include "ember/distributed/distributed_c10d.h"
#include "ember/optim/optimizer.h"

namespace torch::distributed::optim {

// Python's optimizer_class plus its **defaults: builds the local optimizer
// over this rank's param groups.
using OptimizerClass =
    std::function<std::unique_ptr<::torch::optim::Optimizer>(std::vector<::torch::optim::OptimizerParamGroup>)>;
// optimizer_class<optim::Adam>(optim::AdamOptions(1e-3)).
template <typename Opt, typename Options>
OptimizerClass optimizer_class(Options defaults) {
  return [defaults](std::vector<::torch::optim::OptimizerParamGroup> groups) {
    return std::make_unique<Opt>(std::move(groups), defaults);
  };
}

class ZeroRedundancyOptimizer : public ::torch::optim::Optimizer, public algorithms::Joinable {
 public:
  // overlap_with_ddp (the step run inside DDP's comm hook) is not supported:
  // true raises. parameters_as_bucket_view: each rank's parameters live in one
  // flat buffer (one broadcast per rank instead of one per parameter); all
  // parameters must then share a dtype.
  ZeroRedundancyOptimizer(std::vector<::torch::optim::OptimizerParamGroup> params, OptimizerClass optimizer_class,
                          ProcessGroupPtr process_group = nullptr, bool parameters_as_bucket_view = false,
                          bool overlap_with_ddp = false);
  ZeroRedundancyOptimizer(std::vector<Tensor> params, OptimizerClass optimizer_class,
                          ProcessGroupPtr process_group = nullptr, bool parameters_as_bucket_view = false,
                          bool overlap_with_ddp = false);

  // The local optimizer's step (this rank's shard), then the parameters'
  // broadcast from their owners. The options of param_groups() (a scheduler's
  // lr) reach the local optimizer first.
  Tensor step(LossClosure closure = nullptr) override;

  // A new group is partitioned after the others (whose assignment does not
  // change) and this rank's shard of it joins the local optimizer. Call it on
  // the ZeroRedundancyOptimizer itself (Optimizer's is not virtual).
  void add_param_group(const ::torch::optim::OptimizerParamGroup& param_group);

  // Gathers every rank's shard state on rank `to` (a collective: all ranks call it).
  void consolidate_state_dict(int64_t to = 0);
  // On the rank consolidated to: the whole optimizer's per-parameter state,
  // keyed as Optimizer::state() is (param_key), as a plain optimizer over all
  // the parameters would hold it. Elsewhere raises.
  StateMap state_dict() const;
  // Loads the entries of this rank's shard from a whole state (as state_dict's).
  void load_state_dict(const StateMap& state);

  // Each rank's param groups (its shard of every group), torch's greedy
  // partition: per group, parameters by decreasing size to the least-loaded rank.
  const std::vector<std::vector<::torch::optim::OptimizerParamGroup>>& _partition_parameters() const {
    return partition_;
  }
  // The local optimizer (Python's zero.optim).
  ::torch::optim::Optimizer& optim() { return *optim_; }

  std::unique_ptr<algorithms::JoinHook> join_hook() override;
  ProcessGroupPtr join_process_group() const override { return group_; }

 private:
  void partition();
  void build_param_buckets();
  void sync_params();
  void sync_options_to_local();
  void sync_options_from_local();

  ProcessGroupPtr group_;
  int64_t rank_, world_size_;
  bool as_bucket_view_;
  OptimizerClass optimizer_class_;
  std::vector<std::vector<::torch::optim::OptimizerParamGroup>> partition_;  // [rank][group]
  std::unique_ptr<::torch::optim::Optimizer> optim_;
  std::vector<Tensor> buckets_;  // per rank, with parameters_as_bucket_view
  std::optional<int64_t> consolidated_to_;
  StateMap consolidated_;
};

}  // namespace torch::distributed::optim
