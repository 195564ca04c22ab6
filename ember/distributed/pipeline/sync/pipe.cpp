#include "ember/distributed/pipeline/sync/pipe.h"

#include <atomic>
#include <exception>
#include <memory>
#include <thread>

#include "ember/autograd/checkpoint.h"
#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/distributed/pipeline/sync/batchnorm.h"
#include "ember/distributed/pipeline/sync/checkpoint.h"
#include "ember/ops/shape/shape_ops.h"

namespace torch::distributed::pipeline::sync {

PipeImpl::PipeImpl(nn::Sequential module, PipeOptions options_)
    : options(std::move(options_)), module_(std::move(module)) {
  EMBER_CHECK(module_ && module_->size() > 0, "Pipe: module must be a non-empty nn.Sequential");
  EMBER_CHECK(options.chunks() > 0, "Pipe: number of chunks must be positive integer, got ", options.chunks());
  const std::string& c = options.checkpoint();
  EMBER_CHECK(c == "always" || c == "except_last" || c == "never",
              "Pipe: checkpoint is not one of 'always', 'except_last', or 'never': '", c, "'");
  if (options.deferred_batch_norm())
    module_ = DeferredBatchNormImpl::convert_deferred_batch_norm(module_, options.chunks());
  register_module("partitions", module_.ptr());
}

Tensor PipeImpl::forward(const Tensor& input) {
  EMBER_CHECK(input.defined() && input.dim() >= 1, "Pipe.forward: expected a batch (a tensor of at least 1 dim)");
  std::vector<Tensor> batches = input.chunk(options.chunks(), 0);
  const size_t m = batches.size(), n = module_->size();
  EMBER_CHECK(m > 0, "Pipe.forward: the input splits into no micro-batches (shape ", input.sizes(), ")");
  size_t checkpoint_stop = 0;
  if (is_training() && GradMode::is_enabled()) {
    const std::string& c = options.checkpoint();
    checkpoint_stop = c == "always" ? m : c == "except_last" ? m - 1 : 0;
  }
  std::vector<nn::AnyModule*> stages;
  for (auto& s : *module_) stages.push_back(&s);
  const bool grad = GradMode::is_enabled();
  // GPipe's clock: tick k runs (micro-batch i, stage j) for every i + j == k.
  for (size_t k = 0; k + 1 < m + n; ++k) {
    std::vector<std::pair<size_t, size_t>> tasks;
    for (size_t j = 0; j < n; ++j)
      if (k >= j && k - j < m) tasks.emplace_back(k - j, j);
    std::vector<std::exception_ptr> errors(tasks.size());
    auto run = [&](size_t t) {
      try {
        AutoGradMode mode(grad);
        auto [i, j] = tasks[t];
        nn::AnyModule& stage = *stages[j];
        if (i < checkpoint_stop) {
          // The first call is the forward; later ones recompute in backward.
          auto calls = std::make_shared<std::atomic<int>>(0);
          batches[i] = ::torch::autograd::checkpoint(
              [&stage, calls](const ::torch::autograd::variable_list& in) {
                detail::RecomputingGuard recomputing(calls->fetch_add(1) > 0);
                return stage.forward(in[0]);
              },
              {batches[i]});
        } else {
          batches[i] = stage.forward(batches[i]);
        }
      } catch (...) {
        errors[t] = std::current_exception();
      }
    };
    std::vector<std::thread> threads;
    for (size_t t = 1; t < tasks.size(); ++t) threads.emplace_back(run, t);
    run(0);
    for (auto& th : threads) th.join();
    for (auto& e : errors)
      if (e) std::rethrow_exception(e);
  }
  return cat(batches, 0);
}

}  // namespace torch::distributed::pipeline::sync
