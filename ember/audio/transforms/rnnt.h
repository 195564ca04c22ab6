#pragma once
// torchaudio.transforms.RNNTLoss: the module form of functional::rnnt_loss.
#include <cstdint>
#include <string>
#include <utility>

#include "ember/core/arg.h"
#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/pimpl.h"

namespace torch::audio::transforms {

struct RNNTLossOptions {
  TORCH_ARG(int64_t, blank) = -1;
  TORCH_ARG(double, clamp) = -1;
  TORCH_ARG(std::string, reduction) = "mean";
  TORCH_ARG(bool, fused_log_softmax) = true;
};

class RNNTLossImpl : public nn::Cloneable<RNNTLossImpl> {
 public:
  explicit RNNTLossImpl(const RNNTLossOptions& options_ = {});
  explicit RNNTLossImpl(int64_t blank, double clamp = -1, std::string reduction = "mean")
      : RNNTLossImpl(RNNTLossOptions().blank(blank).clamp(clamp).reduction(std::move(reduction))) {}
  void reset() override {}
  Tensor forward(const Tensor& logits, const Tensor& targets, const Tensor& logit_lengths,
                 const Tensor& target_lengths);
  RNNTLossOptions options;
};
TORCH_MODULE(RNNTLoss);

}  // namespace torch::audio::transforms
