#include "ember/distributed/ddp/reducer.h"

#include <algorithm>
#include <numeric>
#include <unordered_set>

#include "ember/autograd/autograd_meta.h"
#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/distributed/gloo/trusted_shapes.h"
#include "ember/ops/factory/factory.h"

namespace torch::distributed::ddp_detail {

Reducer::Reducer(std::vector<Tensor> params, ProcessGroupPtr group, int64_t bucket_bytes_cap,
                 bool find_unused_parameters, bool gradient_as_bucket_view, bool static_graph)
    : params_(std::move(params)),
      group_(std::move(group)),
      bucket_bytes_cap_(bucket_bytes_cap),
      find_unused_(find_unused_parameters),
      grad_as_view_(gradient_as_bucket_view),
      static_graph_(static_graph),
      divide_factor_(get_world_size(group_)) {
  EMBER_CHECK(!params_.empty(), "DistributedDataParallel: the module has no parameter that requires grad");
  EMBER_CHECK(bucket_bytes_cap > 0, "DistributedDataParallel: bucket_cap_mb must be positive");
  size_t n = params_.size();
  std::vector<size_t> reverse(n);
  std::iota(reverse.rbegin(), reverse.rend(), size_t{0});
  build_buckets(reverse);
  ready_.assign(n, false);
  unused_.assign(n, false);
  used_.assign(n, 0);
}

void Reducer::build_buckets(const std::vector<size_t>& order) {
  size_t n = params_.size();
  std::vector<Bucket> old = std::move(buckets_);
  buckets_.clear();
  bucket_of_.assign(n, 0);
  slot_of_.assign(n, 0);
  // Split at the byte cap and at dtype changes. As PyTorch's, the first bucket
  // is capped at 1 MiB so communication starts early.
  constexpr int64_t kFirstBucketBytes = 1 << 20;
  int64_t bytes = 0;
  for (size_t k : order) {
    const Tensor& p = params_[k];
    int64_t b = p.numel() * static_cast<int64_t>(element_size(p.scalar_type()));
    int64_t cap = buckets_.size() <= 1 ? std::min(kFirstBucketBytes, bucket_bytes_cap_) : bucket_bytes_cap_;
    if (buckets_.empty() || bytes + b > cap ||
        params_[buckets_.back().params.front()].scalar_type() != p.scalar_type()) {
      buckets_.emplace_back();
      bytes = 0;
    }
    Bucket& bk = buckets_.back();
    int64_t offset = bk.offsets.empty() ? 0 : bk.offsets.back() + params_[bk.params.back()].numel();
    bucket_of_[k] = buckets_.size() - 1;
    slot_of_[k] = bk.params.size();
    bk.params.push_back(k);
    bk.offsets.push_back(offset);
    bytes += b;
  }
  NoGradGuard no_grad;
  for (auto& bk : buckets_) {
    const Tensor& last = params_[bk.params.back()];
    bk.flat = zeros({bk.offsets.back() + last.numel()}, TensorOptions().dtype(last.scalar_type()));
    if (!grad_as_view_) continue;
    // .grad moves into the new bucket's memory (it was a view of the old one).
    for (size_t s = 0; s < bk.params.size(); ++s) {
      const Tensor& p = params_[bk.params[s]];
      if (!p.grad().defined()) continue;
      Tensor slot = bk.flat.narrow(0, bk.offsets[s], p.numel());
      slot.copy_(p.grad().reshape({-1}));
      p.mutable_grad() = slot.view(p.sizes());
    }
  }
}

std::vector<std::vector<size_t>> Reducer::bucket_indices() const {
  std::vector<std::vector<size_t>> out;
  for (const auto& bk : buckets_) out.push_back(bk.params);
  return out;
}

void Reducer::install_hooks() {
  std::weak_ptr<Reducer> self = weak_from_this();
  for (size_t i = 0; i < params_.size(); ++i) {
    auto acc = ::torch::autograd::grad_accumulator(params_[i]);
    EMBER_CHECK(acc != nullptr, "DistributedDataParallel: parameter ", i, " is not a leaf that requires grad");
    acc->add_post_hook(
        [self, i](const ::torch::autograd::variable_list& outputs, const ::torch::autograd::variable_list&) {
          if (auto r = self.lock()) r->autograd_hook(i);
          return outputs;
        });
    accumulators_.push_back(std::move(acc));
  }
}

void Reducer::register_comm_hook(BoundHook hook) {
  std::lock_guard<std::mutex> lock(mu_);
  EMBER_CHECK(hook != nullptr, "register_comm_hook: the hook is empty");
  EMBER_CHECK(!hook_registered_ && !expect_hooks_ && num_iterations_ == 0,
              "register_comm_hook: register_comm_hook can only be called once"
              " and before the first forward");
  hook_registered_ = true;
  hook_ = std::move(hook);
}

void Reducer::set_static_graph() {
  std::lock_guard<std::mutex> lock(mu_);
  EMBER_CHECK(num_iterations_ == 0 && !expect_hooks_,
              "DistributedDataParallel._set_static_graph: must be called before the first training iteration");
  static_graph_ = true;
}

void Reducer::set_divide_factor(int64_t factor) {
  std::lock_guard<std::mutex> lock(mu_);
  EMBER_CHECK(factor > 0, "DistributedDataParallel: the divide factor must be positive, got ", factor);
  divide_factor_ = factor;
}

bool Reducer::rebuild_buckets() {
  std::lock_guard<std::mutex> lock(mu_);
  if (rebuilt_ || num_iterations_ == 0 || (find_unused_ && !static_graph_)) return false;
  rebuilt_ = true;
  size_t n = params_.size();
  // Rank 0's ready order decides; parameters whose gradient never came (unused,
  // or this rank joined early) follow in the current order.
  std::vector<size_t> order = ready_order_;
  std::vector<bool> have(n, false);
  for (size_t k : order) have[k] = true;
  for (const auto& bk : buckets_)
    for (size_t k : bk.params)
      if (!have[k]) order.push_back(k);
  Tensor wire = empty({static_cast<int64_t>(n)}, TensorOptions().dtype(kLong));
  auto* w = wire.data_ptr<int64_t>();
  for (size_t i = 0; i < n; ++i) w[i] = static_cast<int64_t>(order[i]);
  broadcast(wire, get_global_rank(group_, 0), group_);
  std::vector<bool> seen(n, false);
  for (size_t i = 0; i < n; ++i) {
    EMBER_CHECK(w[i] >= 0 && static_cast<size_t>(w[i]) < n && !seen[static_cast<size_t>(w[i])],
                "DistributedDataParallel: rank 0's bucket order is not a permutation of the ", n,
                " parameters (the ranks' models differ?)");
    seen[static_cast<size_t>(w[i])] = true;
    order[i] = static_cast<size_t>(w[i]);
  }
  build_buckets(order);
  ready_order_.clear();
  return true;
}

void Reducer::prepare_for_backward(const std::vector<Tensor>& outputs) {
  std::lock_guard<std::mutex> lock(mu_);
  if (expect_hooks_ && !first_hook_) {  // a backward started reducing and never finished
    std::string missing;
    for (size_t i = 0; i < params_.size(); ++i)
      if (!ready_[i]) missing += (missing.empty() ? "" : ", ") + std::to_string(i);
    EMBER_ERROR(
        "DistributedDataParallel: Expected to have finished reduction in the prior iteration before "
        "starting a new one. This error indicates that your module has parameters that were not used in "
        "producing loss; pass find_unused_parameters(true) (or static_graph(true) when the same parameters "
        "are unused in every iteration). Parameter indices which did not receive grad: ",
        missing);
  }
  expect_hooks_ = true;
  first_hook_ = true;
  next_bucket_ = 0;
  std::fill(ready_.begin(), ready_.end(), false);
  std::fill(used_.begin(), used_.end(), 0);
  for (auto& bk : buckets_) {
    bk.pending = bk.params.size();
    bk.future.reset();
  }
  std::fill(unused_.begin(), unused_.end(), false);
  if (static_graph_ && num_iterations_ > 0) {
    unused_ = static_unused_;
    return;
  }
  if (!finds_unused()) return;
  // Which AccumulateGrad nodes the outputs' graph reaches; the others' parameters are unused.
  std::unordered_set<const ::torch::autograd::Node*> seen;
  std::vector<const ::torch::autograd::Node*> stack;
  for (const auto& o : outputs)
    if (o.defined() && o.grad_fn()) stack.push_back(o.grad_fn().get());
  while (!stack.empty()) {
    const ::torch::autograd::Node* n = stack.back();
    stack.pop_back();
    if (!seen.insert(n).second) continue;
    for (const auto& e : n->next_edges())
      if (e.function) stack.push_back(e.function.get());
  }
  for (size_t i = 0; i < params_.size(); ++i) unused_[i] = !seen.count(accumulators_[i].get());
}

void Reducer::autograd_hook(size_t index) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!expect_hooks_) return;  // no_sync(), or a backward this reducer was not prepared for
  used_[index] = 1;
  if (num_iterations_ == 0 && !ready_[index]) ready_order_.push_back(index);
  if (first_hook_) {
    first_hook_ = false;
    for (size_t i = 0; i < params_.size(); ++i)
      if (unused_[i]) mark_ready(i);
  }
  mark_ready(index);
}

void Reducer::mark_ready(size_t index) {
  if (ready_[index]) return;
  ready_[index] = true;
  Bucket& bk = buckets_[bucket_of_[index]];
  const Tensor& p = params_[index];
  Tensor slot = bk.flat.narrow(0, bk.offsets[slot_of_[index]], p.numel());
  NoGradGuard no_grad;
  if (p.grad().defined() && !unused_[index]) {
    // With gradient_as_bucket_view the gradient may already live in its slot.
    if (p.grad().data_ptr() != slot.data_ptr() || !p.grad().is_contiguous()) slot.copy_(p.grad().reshape({-1}));
  } else {
    slot.zero_();
  }
  if (--bk.pending == 0) launch_ready_buckets();
}

void Reducer::launch_ready_buckets() {
  while (next_bucket_ < buckets_.size() && buckets_[next_bucket_].pending == 0) {
    Bucket& bk = buckets_[next_bucket_];
    std::vector<Tensor> params;
    for (size_t k : bk.params) params.push_back(params_[k]);
    GradBucket gb(next_bucket_, buckets_.size(), bk.flat, params, bk.offsets);
    if (hook_registered_) {
      bk.future.emplace(hook_(gb));
    } else {  // the default: sum, divided by the ranks still training (Note [DDP join])
      bk.flat.div_(Scalar(divide_factor_));
      gloo_detail::TrustedShapes trusted;  // Note [Trusted shapes]
      bk.future.emplace(all_reduce(bk.flat, ReduceOp::SUM, group_, true), bk.flat);
    }
    ++next_bucket_;
  }
  if (next_bucket_ == buckets_.size()) finalize();
}

std::vector<int32_t> Reducer::reduce_used_map(const std::vector<int32_t>& used) {
  Tensor t = empty({static_cast<int64_t>(used.size())}, TensorOptions().dtype(kInt));
  auto* u = t.data_ptr<int32_t>();
  std::copy(used.begin(), used.end(), u);
  all_reduce(t, ReduceOp::MAX, group_);
  return {u, u + used.size()};
}

void Reducer::finalize() {
  NoGradGuard no_grad;
  std::vector<int32_t> globally_used(used_.size(), 1);
  if (finds_unused()) {
    // A parameter unused here may be used elsewhere: it gets the average too.
    globally_used = reduce_used_map(used_);
    if (static_graph_) {
      static_unused_ = unused_;
      static_globally_used_ = globally_used;
    }
  } else if (static_graph_) {
    globally_used = static_globally_used_;
  }
  for (auto& bk : buckets_) {
    Tensor result = bk.future->wait();
    bk.future.reset();
    for (size_t s = 0; s < bk.params.size(); ++s) {
      size_t k = bk.params[s];
      if (!globally_used[k]) continue;  // no rank produced a gradient: .grad stays as it was
      const Tensor& p = params_[k];
      Tensor g = result.narrow(0, bk.offsets[s], p.numel()).view(p.sizes());
      if (grad_as_view_) {
        if (!result.is_same(bk.flat)) bk.flat.narrow(0, bk.offsets[s], p.numel()).copy_(g.reshape({-1}));
        p.mutable_grad() = bk.flat.narrow(0, bk.offsets[s], p.numel()).view(p.sizes());
      } else if (p.grad().defined())
        p.grad().copy_(g);
      else
        p.mutable_grad() = g.clone();
    }
  }
  expect_hooks_ = false;
  ++num_iterations_;
}

void Reducer::shadow_backward() {
  std::lock_guard<std::mutex> lock(mu_);
  NoGradGuard no_grad;
  // The same collectives as finalize's, in the same order, on zeros.
  std::vector<Future> futures;
  for (size_t i = 0; i < buckets_.size(); ++i) {
    Bucket& bk = buckets_[i];
    std::vector<Tensor> params;
    for (size_t k : bk.params) params.push_back(params_[k]);
    Tensor zero = zeros_like(bk.flat);
    GradBucket gb(i, buckets_.size(), zero, params, bk.offsets);
    if (hook_registered_)
      futures.push_back(hook_(gb));
    else {
      gloo_detail::TrustedShapes trusted;  // as the training ranks' bucket all_reduce
      futures.emplace_back(all_reduce(zero, ReduceOp::SUM, group_, true), zero);
    }
  }
  std::vector<int32_t> globally_used(params_.size(), 1);
  if (finds_unused()) {
    globally_used = reduce_used_map(std::vector<int32_t>(params_.size(), 0));
    if (static_graph_) {
      // This rank ran no forward: which parameters are unused is the others' knowledge.
      static_unused_.assign(params_.size(), false);
      for (size_t i = 0; i < params_.size(); ++i) static_unused_[i] = !globally_used[i];
      static_globally_used_ = globally_used;
    }
  } else if (static_graph_ && !static_globally_used_.empty()) {
    globally_used = static_globally_used_;
  }
  // The others' averaged gradients land in .grad here too, so an optimizer
  // stepping on a joined rank (ZeroRedundancyOptimizer's join hook) uses them.
  for (size_t i = 0; i < buckets_.size(); ++i) {
    Tensor result = futures[i].wait();
    const Bucket& bk = buckets_[i];
    for (size_t s = 0; s < bk.params.size(); ++s) {
      size_t k = bk.params[s];
      if (!globally_used[k]) continue;
      const Tensor& p = params_[k];
      Tensor g = result.narrow(0, bk.offsets[s], p.numel()).view(p.sizes());
      if (p.grad().defined())
        p.grad().copy_(g);
      else
        p.mutable_grad() = g.clone();
    }
  }
  ++num_iterations_;
}

}  // namespace torch::distributed::ddp_detail
