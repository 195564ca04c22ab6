#include "ember/distributed/optim/zero_redundancy_optimizer.h"

#include <algorithm>

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/distributed/optim/state_codec.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/shape/shape_ops.h"

namespace torch::distributed::optim {
namespace {

using ::torch::optim::OptimizerParamGroup;

// The wrapped class's defaults (the base class needs them before the local
// optimizer exists): those of one built over all the parameters, never stepped.
std::unique_ptr<::torch::optim::OptimizerOptions> defaults_of(const OptimizerClass& cls,
                                                              const std::vector<OptimizerParamGroup>& groups) {
  EMBER_CHECK(cls != nullptr, "ZeroRedundancyOptimizer: optimizer_class is empty");
  EMBER_CHECK(!groups.empty(), "ZeroRedundancyOptimizer: optimizer got an empty parameter list");
  return cls(groups)->defaults().clone();
}

// A byte buffer from `src` (global rank) to every rank of the group.
std::vector<uint8_t> broadcast_bytes(std::vector<uint8_t> bytes, int64_t src, bool is_src, const ProcessGroupPtr& g) {
  Tensor n = full({1}, Scalar(static_cast<int64_t>(bytes.size())), TensorOptions().dtype(kLong));
  broadcast(n, src, g);
  int64_t size = n.item<int64_t>();
  EMBER_CHECK(size >= 0, "ZeroRedundancyOptimizer: rank ", src, " announced ", size, " bytes of state");
  Tensor data = empty({size}, TensorOptions().dtype(kByte));
  if (is_src && size) std::copy(bytes.begin(), bytes.end(), data.data_ptr<uint8_t>());
  if (size) broadcast(data, src, g);
  if (!is_src) bytes.assign(data.data_ptr<uint8_t>(), data.data_ptr<uint8_t>() + size);
  return bytes;
}

}  // namespace

ZeroRedundancyOptimizer::ZeroRedundancyOptimizer(std::vector<Tensor> params, OptimizerClass optimizer_class,
                                                 ProcessGroupPtr process_group, bool parameters_as_bucket_view,
                                                 bool overlap_with_ddp)
    : ZeroRedundancyOptimizer(std::vector<OptimizerParamGroup>{OptimizerParamGroup(std::move(params))},
                              std::move(optimizer_class), std::move(process_group), parameters_as_bucket_view,
                              overlap_with_ddp) {}

ZeroRedundancyOptimizer::ZeroRedundancyOptimizer(std::vector<OptimizerParamGroup> params,
                                                 OptimizerClass optimizer_class, ProcessGroupPtr process_group,
                                                 bool parameters_as_bucket_view, bool overlap_with_ddp)
    : Optimizer(params, defaults_of(optimizer_class, params)),
      group_(process_group ? std::move(process_group) : get_default_group()),
      as_bucket_view_(parameters_as_bucket_view),
      optimizer_class_(std::move(optimizer_class)) {
  EMBER_CHECK(!overlap_with_ddp,
              "ZeroRedundancyOptimizer: overlap_with_ddp=true (the step inside DDP's communication hook) is not "
              "supported; construct it with overlap_with_ddp=false and call step() after backward");
  rank_ = get_rank(group_);
  world_size_ = get_world_size(group_);
  EMBER_CHECK(rank_ >= 0, "ZeroRedundancyOptimizer: this rank is not in the process group");
  partition();
  optim_ = optimizer_class_(partition_[static_cast<size_t>(rank_)]);
  if (as_bucket_view_) build_param_buckets();
}

void ZeroRedundancyOptimizer::partition() {
  partition_.assign(static_cast<size_t>(world_size_), {});
  std::vector<int64_t> sizes(static_cast<size_t>(world_size_), 0);
  for (const auto& group : param_groups_) {
    std::vector<Tensor> sorted = group.params();
    // Python's sorted(key=numel, reverse=True) is stable: ties keep their order.
    std::stable_sort(sorted.begin(), sorted.end(),
                     [](const Tensor& a, const Tensor& b) { return a.numel() > b.numel(); });
    std::vector<std::vector<Tensor>> per_rank(static_cast<size_t>(world_size_));
    for (const auto& p : sorted) {
      auto r = static_cast<size_t>(std::min_element(sizes.begin(), sizes.end()) - sizes.begin());
      per_rank[r].push_back(p);
      sizes[r] += p.numel();
    }
    for (size_t r = 0; r < per_rank.size(); ++r)
      partition_[r].emplace_back(std::move(per_rank[r]), group.options().clone());
  }
}

void ZeroRedundancyOptimizer::add_param_group(const OptimizerParamGroup& param_group) {
  Optimizer::add_param_group(param_group);
  partition();
  optim_->add_param_group(partition_[static_cast<size_t>(rank_)].back());
  if (as_bucket_view_) build_param_buckets();
}

void ZeroRedundancyOptimizer::build_param_buckets() {
  NoGradGuard no_grad;
  buckets_.clear();
  ScalarType dtype = param_groups_.front().params().empty() ? kFloat : param_groups_.front().params()[0].scalar_type();
  for (const auto& g : param_groups_)
    for (const auto& p : g.params())
      EMBER_CHECK(p.scalar_type() == dtype,
                  "ZeroRedundancyOptimizer: parameters_as_bucket_view needs parameters of one dtype, got ",
                  dtype_name(dtype), " and ", dtype_name(p.scalar_type()));
  for (const auto& groups : partition_) {
    int64_t total = 0;
    for (const auto& g : groups)
      for (const auto& p : g.params()) total += p.numel();
    Tensor bucket = empty({total}, TensorOptions().dtype(dtype));
    int64_t at = 0;
    for (const auto& g : groups)
      for (const auto& p : g.params()) {
        Tensor view = bucket.narrow(0, at, p.numel()).view(p.sizes());
        view.copy_(p);
        p.set_data(view);
        at += p.numel();
      }
    buckets_.push_back(bucket);
  }
}

void ZeroRedundancyOptimizer::sync_options_to_local() {
  auto& local = optim_->param_groups();
  for (size_t i = 0; i < local.size() && i < param_groups_.size(); ++i)
    local[i].set_options(param_groups_[i].options().clone());
}

void ZeroRedundancyOptimizer::sync_options_from_local() {
  auto& local = optim_->param_groups();
  for (size_t i = 0; i < local.size() && i < param_groups_.size(); ++i)
    param_groups_[i].set_options(local[i].options().clone());
}

void ZeroRedundancyOptimizer::sync_params() {
  NoGradGuard no_grad;
  std::vector<WorkPtr> works;
  for (int64_t r = 0; r < world_size_; ++r) {
    int64_t src = get_global_rank(group_, r);
    if (as_bucket_view_) {
      if (buckets_[static_cast<size_t>(r)].numel() > 0)
        works.push_back(broadcast(buckets_[static_cast<size_t>(r)], src, group_, true));
      continue;
    }
    for (const auto& g : partition_[static_cast<size_t>(r)])
      for (const auto& p : g.params()) works.push_back(broadcast(p, src, group_, true));
  }
  for (auto& w : works) w->wait();
}

Tensor ZeroRedundancyOptimizer::step(LossClosure closure) {
  algorithms::Join::notify_join_context(*this);
  sync_options_to_local();
  Tensor loss = optim_->step(std::move(closure));
  sync_options_from_local();
  sync_params();
  return loss;
}

void ZeroRedundancyOptimizer::consolidate_state_dict(int64_t to) {
  EMBER_CHECK(to >= 0 && to < world_size_, "ZeroRedundancyOptimizer.consolidate_state_dict: to=", to,
              " is not a rank of the group (size ", world_size_, ")");
  sync_options_to_local();
  consolidated_.clear();
  consolidated_to_.reset();
  for (int64_t r = 0; r < world_size_; ++r) {
    // Rank r's shard, in its partition's order: a presence flag and the fields.
    std::vector<uint8_t> bytes;
    const auto& shard = partition_[static_cast<size_t>(r)];
    if (r == rank_) {
      for (const auto& g : shard)
        for (const auto& p : g.params()) {
          auto it = optim_->state().find(::torch::optim::param_key(p));
          bytes.push_back(it != optim_->state().end() && it->second ? 1 : 0);
          if (bytes.back()) detail::encode_state(*it->second, bytes);
        }
    }
    bytes = broadcast_bytes(std::move(bytes), get_global_rank(group_, r), r == rank_, group_);
    if (rank_ != to) continue;
    size_t at = 0;
    for (const auto& g : shard)
      for (const auto& p : g.params()) {
        EMBER_CHECK(at < bytes.size(), "ZeroRedundancyOptimizer.consolidate_state_dict: rank ", r,
                    "'s state ends early");
        if (bytes[at++] == 0) continue;
        auto state = optim_->make_param_state();
        EMBER_CHECK(state != nullptr, "ZeroRedundancyOptimizer.consolidate_state_dict: rank ", r,
                    " sent state for an optimizer that keeps none");
        detail::decode_state(bytes, at, *state);
        consolidated_[::torch::optim::param_key(p)] = std::move(state);
      }
    EMBER_CHECK(at == bytes.size(), "ZeroRedundancyOptimizer.consolidate_state_dict: rank ", r, " sent ",
                bytes.size() - at, " bytes too many");
  }
  if (rank_ == to) consolidated_to_ = to;
}

::torch::optim::Optimizer::StateMap ZeroRedundancyOptimizer::state_dict() const {
  EMBER_CHECK(consolidated_to_.has_value(),
              "ZeroRedundancyOptimizer.state_dict: Optimizer state has not been consolidated on this rank. Please "
              "call `consolidate_state_dict(to=",
              rank_, ")` on all ranks beforehand if you meant to save the global state.");
  StateMap out;
  for (const auto& [k, v] : consolidated_) out[k] = v->clone();
  return out;
}

void ZeroRedundancyOptimizer::load_state_dict(const StateMap& state) {
  auto& local = optim_->state();
  for (const auto& g : partition_[static_cast<size_t>(rank_)])
    for (const auto& p : g.params()) {
      auto key = ::torch::optim::param_key(p);
      auto it = state.find(key);
      if (it != state.end() && it->second)
        local[key] = it->second->clone();
      else
        local.erase(key);
    }
}

namespace {
// A joined rank steps too, so the parameter broadcasts match.
class ZeroJoinHook : public algorithms::JoinHook {
 public:
  explicit ZeroJoinHook(ZeroRedundancyOptimizer& zero) : zero_(zero) {}
  void main_hook() override { zero_.step(); }

 private:
  ZeroRedundancyOptimizer& zero_;
};
}  // namespace

std::unique_ptr<algorithms::JoinHook> ZeroRedundancyOptimizer::join_hook() {
  return std::make_unique<ZeroJoinHook>(*this);
}

}  // namespace torch::distributed::optim
