#pragma once
// torchaudio.functional.rnnt_loss: the RNN Transducer loss (Graves 2012) over
// joiner logits [batch, time, target + 1, class], with torchaudio's gradient
// (fused log-softmax, optional clamp of each gradient element).
#include <string>

#include "ember/core/tensor.h"

namespace torch::audio::functional {

// targets: [batch, max target length] int32 (int64 accepted); logit_lengths and
// target_lengths: [batch] int32 (int64 accepted). blank < 0 counts from the
// class dimension's end. clamp > 0 clamps each gradient element to
// [-clamp, clamp]. fused_log_softmax = false takes logits as log-probabilities
// already (the option torchaudio 0.10-0.12 had; kept as a trailing keyword).
// reduction: "none" ([batch] costs), "mean" or "sum".
Tensor rnnt_loss(const Tensor& logits, const Tensor& targets, const Tensor& logit_lengths, const Tensor& target_lengths,
                 int64_t blank = -1, double clamp = -1, const std::string& reduction = "mean",
                 bool fused_log_softmax = true);

}  // namespace torch::audio::functional
