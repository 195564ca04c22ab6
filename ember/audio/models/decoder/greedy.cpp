#include "ember/audio/models/decoder/greedy.h"

#include "ember/core/error.h"
#include "ember/ops/all_ops.h"

namespace torch::audio::models::decoder {

std::vector<CTCHypothesis> ctc_greedy_decode(const Tensor& emissions, const std::optional<Tensor>& lengths,
                                             int64_t blank) {
  EMBER_CHECK(emissions.dim() == 3 && emissions.is_floating_point(),
              "ctc_greedy_decode: emissions must be a float [batch, frame, num_tokens] tensor, got ",
              emissions.scalar_type(), " of shape ", emissions.sizes());
  const int64_t batch = emissions.size(0), frames = emissions.size(1), n = emissions.size(2);
  EMBER_CHECK(n > 0, "ctc_greedy_decode: emissions have no tokens");
  EMBER_CHECK(blank >= 0 && blank < n, "ctc_greedy_decode: blank must be in [0, ", n, "), got ", blank);
  std::vector<int64_t> lens(batch, frames);
  if (lengths) {
    EMBER_CHECK(lengths->dim() == 1 && lengths->size(0) == batch && !lengths->is_floating_point(),
                "ctc_greedy_decode: lengths must be an integer tensor of shape [", batch, "], got shape ",
                lengths->sizes());
    Tensor l = lengths->to(kLong).contiguous();
    for (int64_t b = 0; b < batch; ++b) {
      lens[b] = l.data_ptr<int64_t>()[b];
      EMBER_CHECK(lens[b] >= 0 && lens[b] <= frames, "ctc_greedy_decode: lengths[", b, "] = ", lens[b],
                  " is not in [0, ", frames, "]");
    }
  }
  auto [best, best_idx] = emissions.to(kDouble).max(-1);
  Tensor v = best.contiguous(), ix = best_idx.contiguous();
  const double* vp = v.data_ptr<double>();
  const int64_t* ip = ix.data_ptr<int64_t>();
  std::vector<CTCHypothesis> out;
  for (int64_t b = 0; b < batch; ++b) {
    std::vector<int64_t> tokens, steps;
    double score = 0;
    int64_t prev = -1;
    for (int64_t t = 0; t < lens[b]; ++t) {
      const int64_t k = ip[b * frames + t];
      score += vp[b * frames + t];
      if (k != blank && k != prev) {
        tokens.push_back(k);
        steps.push_back(t);
      }
      prev = k;
    }
    CTCHypothesis h;
    h.tokens = tensor(tokens, TensorOptions(kLong));
    h.timesteps = tensor(steps, TensorOptions(kLong)).to(kInt);
    h.score = score;
    out.push_back(std::move(h));
  }
  return out;
}

}  // namespace torch::audio::models::decoder
