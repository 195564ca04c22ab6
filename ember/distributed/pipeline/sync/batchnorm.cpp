#include "ember/distributed/pipeline/sync/batchnorm.h"

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/distributed/pipeline/sync/checkpoint.h"
#include "ember/nn/functional/batchnorm.h"
#include "ember/nn/modules/batchnorm.h"
#include "ember/ops/elementwise/operators.h"
#include "ember/ops/factory/factory.h"

namespace torch::distributed::pipeline::sync {

DeferredBatchNormImpl::DeferredBatchNormImpl(const DeferredBatchNormOptions& options_, std::optional<Adopted> adopt)
    : options(options_), adopt_(std::move(adopt)) {
  EMBER_CHECK(options.num_features() > 0, "DeferredBatchNorm: num_features must be positive, got ",
              options.num_features());
  EMBER_CHECK(options.chunks() > 0, "DeferredBatchNorm: chunks must be positive, got ", options.chunks());
  reset();
}

void DeferredBatchNormImpl::reset() {
  const int64_t c = options.num_features();
  Adopted a;
  if (adopt_) {
    a = *adopt_;
    adopt_.reset();
  } else {
    if (options.affine()) {
      a.weight = ones({c});
      a.bias = zeros({c});
    }
    a.running_mean = zeros({c});
    a.running_var = ones({c});
    a.num_batches_tracked = zeros({}, kLong);
  }
  weight = register_parameter("weight", a.weight, options.affine());
  bias = register_parameter("bias", a.bias, options.affine());
  running_mean = register_buffer("running_mean", a.running_mean);
  running_var = register_buffer("running_var", a.running_var);
  num_batches_tracked = register_buffer("num_batches_tracked", a.num_batches_tracked);
  sum = register_buffer("sum", zeros_like(running_mean));
  sum_squares = register_buffer("sum_squares", zeros_like(running_var));
  counter_ = 0;
  tracked_ = 0;
}

void DeferredBatchNormImpl::track(const Tensor& input) {
  std::vector<int64_t> dims{0};
  for (int64_t d = 2; d < input.dim(); ++d) dims.push_back(d);
  {
    NoGradGuard no_grad;
    sum.add_(input.sum(dims));
    sum_squares.add_((input * input).sum(dims));
  }
  counter_ += input.numel() / input.size(1);
  ++tracked_;
}

// The running statistics move once, by the mini-batch's mean and biased variance.
void DeferredBatchNormImpl::commit() {
  NoGradGuard no_grad;
  num_batches_tracked.add_(1);
  double m = options.momentum().has_value() ? *options.momentum()
                                            : 1.0 / static_cast<double>(num_batches_tracked.item<int64_t>());
  Tensor mean = sum / static_cast<double>(counter_);
  Tensor var = sum_squares / static_cast<double>(counter_) - mean * mean;
  running_mean.mul_(1 - m).add_(mean * m);
  running_var.mul_(1 - m).add_(var * m);
  sum.zero_();
  sum_squares.zero_();
  counter_ = 0;
  tracked_ = 0;
}

Tensor DeferredBatchNormImpl::forward(const Tensor& input) {
  EMBER_CHECK(input.defined() && input.dim() > 2, "DeferredBatchNorm: expected at least 3D input (got ",
              input.defined() ? input.dim() : 0, "D input)");
  EMBER_CHECK(input.size(1) == options.num_features(), "DeferredBatchNorm: the input has ", input.size(1),
              " channels but the layer ", options.num_features());
  if (!is_training())
    return nn::functional::detail::batch_norm(input, running_mean, running_var, weight, bias, false, 0.0,
                                              options.eps());
  // A recomputed micro-batch (Pipe's checkpointing) was tracked in forward already.
  if (!is_recomputing()) {
    track(input);
    if (tracked_ == options.chunks()) commit();
  }
  return nn::functional::detail::batch_norm(input, Tensor(), Tensor(), weight, bias, true, 0.0, options.eps());
}

nn::Sequential DeferredBatchNormImpl::convert_deferred_batch_norm(const nn::Sequential& module, int64_t chunks) {
  EMBER_CHECK(module, "convert_deferred_batch_norm: the module is empty");
  nn::Sequential out;
  auto names = module->named_children();
  size_t i = 0;
  for (const auto& layer : *module) {
    const std::string& name = names[i++].key();
    std::shared_ptr<nn::Module> child = layer.ptr();
    auto* bn = dynamic_cast<nn::detail::BatchNormTag*>(child.get());
    if (bn && bn->batch_norm_options().track_running_stats()) {
      const auto& o = bn->batch_norm_options();
      auto params = child->named_parameters(false);
      auto buffers = child->named_buffers(false);
      Adopted a;
      if (o.affine()) {
        a.weight = params["weight"];
        a.bias = params["bias"];
      }
      a.running_mean = buffers["running_mean"];
      a.running_var = buffers["running_var"];
      a.num_batches_tracked = buffers["num_batches_tracked"];
      DeferredBatchNormOptions d(o.num_features());
      d.eps(o.eps()).momentum(o.momentum()).affine(o.affine()).chunks(chunks);
      out->push_back(name, std::make_shared<DeferredBatchNormImpl>(d, a));
    } else if (auto seq = std::dynamic_pointer_cast<nn::SequentialImpl>(child)) {
      out->push_back(name, convert_deferred_batch_norm(nn::Sequential(seq), chunks).ptr());
    } else {
      out->push_back(name, layer);
    }
  }
  return out;
}

}  // namespace torch::distributed::pipeline::sync
