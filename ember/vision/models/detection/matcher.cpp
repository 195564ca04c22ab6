#include "ember/vision/models/detection/matcher.h"

#include <algorithm>

#include "ember/core/error.h"
#include "ember/ops/all_ops.h"

namespace torch::vision::models::detection::_utils {

namespace {
using indexing::Slice;
}  // namespace

Matcher::Matcher(double high_threshold, double low_threshold, bool allow_low_quality_matches)
    : high_threshold(high_threshold),
      low_threshold(low_threshold),
      allow_low_quality_matches(allow_low_quality_matches) {
  EMBER_CHECK(low_threshold <= high_threshold, "Matcher: low_threshold should be <= high_threshold, got ",
              low_threshold, " > ", high_threshold);
}

Tensor Matcher::operator()(const Tensor& match_quality_matrix) const {
  EMBER_CHECK(match_quality_matrix.dim() == 2, "Matcher: expected a 2-D match_quality_matrix, got shape ",
              match_quality_matrix.sizes());
  if (match_quality_matrix.numel() == 0) {
    EMBER_CHECK(match_quality_matrix.size(0) != 0,
                "Matcher: No ground-truth boxes available for one of the images during training");
    EMBER_ERROR("Matcher: No proposal boxes available for one of the images during training");
  }
  auto [matched_vals, matches] = match_quality_matrix.max(0);
  const Tensor all_matches = allow_low_quality_matches ? matches.clone() : Tensor();
  const Tensor below = matched_vals < low_threshold;
  const Tensor between = (matched_vals >= low_threshold) & (matched_vals < high_threshold);
  matches.masked_fill_(below, BELOW_LOW_THRESHOLD);
  matches.masked_fill_(between, BETWEEN_THRESHOLDS);
  if (allow_low_quality_matches) set_low_quality_matches_(matches, all_matches, match_quality_matrix);
  return matches;
}

void Matcher::set_low_quality_matches_(Tensor& matches, const Tensor& all_matches,
                                       const Tensor& match_quality_matrix) const {
  const Tensor highest = std::get<0>(match_quality_matrix.max(1));
  const Tensor pred_inds = nonzero(match_quality_matrix == highest.unsqueeze(1)).select(1, 1);
  matches.index_put_({pred_inds}, all_matches.index({pred_inds}));
}

Tensor SSDMatcher::operator()(const Tensor& match_quality_matrix) const {
  Tensor matches = Matcher::operator()(match_quality_matrix);
  const Tensor best_pred = std::get<1>(match_quality_matrix.max(1));
  matches.index_put_({best_pred}, arange(best_pred.size(0), TensorOptions().dtype(kLong)));
  return matches;
}

BalancedPositiveNegativeSampler::BalancedPositiveNegativeSampler(int64_t batch_size_per_image, double positive_fraction)
    : batch_size_per_image(batch_size_per_image), positive_fraction(positive_fraction) {
  EMBER_CHECK(batch_size_per_image >= 0 && positive_fraction >= 0 && positive_fraction <= 1,
              "BalancedPositiveNegativeSampler: bad batch_size_per_image=", batch_size_per_image,
              " or positive_fraction=", positive_fraction);
}

std::tuple<std::vector<Tensor>, std::vector<Tensor>> BalancedPositiveNegativeSampler::operator()(
    const std::vector<Tensor>& matched_idxs) const {
  std::vector<Tensor> pos_idx, neg_idx;
  for (const Tensor& m : matched_idxs) {
    EMBER_CHECK(m.dim() == 1, "BalancedPositiveNegativeSampler: expected 1-D matched_idxs, got shape ", m.sizes());
    const Tensor positive = nonzero(m >= 1).select(1, 0);
    const Tensor negative = nonzero(m == 0).select(1, 0);
    const int64_t num_pos =
        std::min(positive.numel(), static_cast<int64_t>(static_cast<double>(batch_size_per_image) * positive_fraction));
    const int64_t num_neg = std::min(negative.numel(), batch_size_per_image - num_pos);
    const Tensor perm1 = randperm(positive.numel(), TensorOptions().dtype(kLong)).slice(0, 0, num_pos);
    const Tensor perm2 = randperm(negative.numel(), TensorOptions().dtype(kLong)).slice(0, 0, num_neg);
    Tensor pos_mask = zeros_like(m, TensorOptions().dtype(kByte));
    Tensor neg_mask = zeros_like(m, TensorOptions().dtype(kByte));
    pos_mask.index_put_({positive.index({perm1})}, 1);
    neg_mask.index_put_({negative.index({perm2})}, 1);
    pos_idx.push_back(pos_mask);
    neg_idx.push_back(neg_mask);
  }
  return {std::move(pos_idx), std::move(neg_idx)};
}

}  // namespace torch::vision::models::detection::_utils
