#pragma once
// DeferredBatchNorm (torch.distributed.pipeline.sync.batchnorm): a batch norm
// that normalizes each micro-batch with its own statistics, as BatchNorm does,
// but updates the running statistics once per mini-batch of `chunks`
// micro-batches, from the sum and sum of squares of all of them, so they are
// those of the whole mini-batch (the biased variance, as torch's). Pipe with
// deferred_batch_norm puts one in place of every BatchNorm that tracks
// running statistics.
#include <optional>

#include "ember/core/arg.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/modules/container/sequential.h"
#include "ember/nn/pimpl.h"

namespace torch::distributed::pipeline::sync {

struct DeferredBatchNormOptions {
  /* implicit */ DeferredBatchNormOptions(int64_t num_features) : num_features_(num_features) {}
  TORCH_ARG(int64_t, num_features);
  TORCH_ARG(double, eps) = 1e-5;
  // nullopt: the cumulative average over mini-batches.
  TORCH_ARG(std::optional<double>, momentum) = 0.1;
  TORCH_ARG(bool, affine) = true;
  TORCH_ARG(int64_t, chunks) = 1;
};

class DeferredBatchNormImpl : public nn::Cloneable<DeferredBatchNormImpl> {
 public:
  // The tensors a converted BatchNorm hands over (registered as they are).
  struct Adopted {
    Tensor weight, bias, running_mean, running_var, num_batches_tracked;
  };
  explicit DeferredBatchNormImpl(const DeferredBatchNormOptions& options_, std::optional<Adopted> adopt = std::nullopt);
  void reset() override;
  Tensor forward(const Tensor& input);

  // A copy of `module` with every BatchNorm (tracking running statistics) in
  // it and in its nested Sequentials replaced by a DeferredBatchNorm sharing
  // its parameters and buffers; other layers are shared as they are.
  static nn::Sequential convert_deferred_batch_norm(const nn::Sequential& module, int64_t chunks = 1);

  DeferredBatchNormOptions options;
  Tensor weight, bias;
  Tensor running_mean, running_var, num_batches_tracked;
  Tensor sum, sum_squares;  // of the micro-batches tracked so far

 private:
  void track(const Tensor& input);
  void commit();
  std::optional<Adopted> adopt_;  // used by the first reset() only (clone() makes fresh tensors)
  int64_t counter_ = 0;           // values per channel tracked so far
  int64_t tracked_ = 0;           // micro-batches tracked so far
};

TORCH_MODULE(DeferredBatchNorm);

}  // namespace torch::distributed::pipeline::sync
