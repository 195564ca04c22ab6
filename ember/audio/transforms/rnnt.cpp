#include "ember/audio/transforms/rnnt.h"

#include "ember/audio/functional/rnnt.h"
#include "ember/core/error.h"

namespace torch::audio::transforms {

RNNTLossImpl::RNNTLossImpl(const RNNTLossOptions& options_) : options(options_) {
  const std::string& r = options.reduction();
  EMBER_CHECK(r == "none" || r == "mean" || r == "sum",
              "RNNTLoss: reduction should be one of \"none\", \"mean\", or \"sum\", got \"", r, "\"");
}

Tensor RNNTLossImpl::forward(const Tensor& logits, const Tensor& targets, const Tensor& logit_lengths,
                             const Tensor& target_lengths) {
  return functional::rnnt_loss(logits, targets, logit_lengths, target_lengths, options.blank(), options.clamp(),
                               options.reduction(), options.fused_log_softmax());
}

}  // namespace torch::audio::transforms
