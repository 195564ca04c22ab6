#pragma once
// Pipe (torch.distributed.pipeline.sync.Pipe): GPipe pipeline parallelism.
// The Sequential's direct children are the stages (group layers into one
// stage with a nested Sequential; torch 1.13 splits where the devices change,
// and on one CPU device every stage gets its own thread instead). The batch is
// split into `chunks` micro-batches; at clock tick k, stage j runs micro-batch
// k - j, all stages of a tick in parallel. Outputs are concatenated, so the
// forward and (through the recorded graph) the backward equal the unsplit
// Sequential's for modules that treat samples independently.
#include <string>

#include "ember/core/arg.h"
#include "ember/nn/module.h"
#include "ember/nn/modules/container/sequential.h"
#include "ember/nn/pimpl.h"

namespace torch::distributed::pipeline::sync {

struct PipeOptions {
  // Micro-batches per mini-batch.
  TORCH_ARG(int64_t, chunks) = 1;
  // "always", "except_last" or "never": which micro-batches recompute their
  // activations in backward instead of keeping them (training mode only).
  TORCH_ARG(std::string, checkpoint) = "except_last";
  // Put a DeferredBatchNorm (pipeline/sync/batchnorm.h) in place of every
  // BatchNorm, so running statistics are those of the whole mini-batch.
  TORCH_ARG(bool, deferred_batch_norm) = false;
};

class PipeImpl : public nn::Module {
 public:
  explicit PipeImpl(nn::Sequential module, PipeOptions options_ = {});
  // Returns the output itself (torch 1.13 wraps it in a local RRef).
  Tensor forward(const Tensor& input);
  size_t num_stages() const { return module_->size(); }

  PipeOptions options;

 private:
  nn::Sequential module_;
};

TORCH_MODULE(Pipe);

}  // namespace torch::distributed::pipeline::sync
