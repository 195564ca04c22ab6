#pragma once
// torchvision.models.detection._utils.Matcher, SSDMatcher and
// BalancedPositiveNegativeSampler: assigning predictions to ground truth and
// drawing a fixed-proportion minibatch of positives and negatives.
#include <cstdint>
#include <tuple>
#include <vector>

#include "ember/core/tensor.h"

namespace torch::vision::models::detection::_utils {

class Matcher {
 public:
  static constexpr int64_t BELOW_LOW_THRESHOLD = -1;
  static constexpr int64_t BETWEEN_THRESHOLDS = -2;

  Matcher(double high_threshold, double low_threshold, bool allow_low_quality_matches = false);
  virtual ~Matcher() = default;
  Matcher(const Matcher&) = default;
  Matcher& operator=(const Matcher&) = default;
  // match_quality_matrix [M ground truths, N predictions] -> int64 [N]: the
  // matched ground truth, or BELOW_LOW_THRESHOLD / BETWEEN_THRESHOLDS.
  virtual Tensor operator()(const Tensor& match_quality_matrix) const;

  double high_threshold, low_threshold;
  bool allow_low_quality_matches;

 protected:
  void set_low_quality_matches_(Tensor& matches, const Tensor& all_matches, const Tensor& match_quality_matrix) const;
};

// SSD's: one threshold, and each ground truth's best prediction matched to it.
class SSDMatcher : public Matcher {
 public:
  explicit SSDMatcher(double threshold) : Matcher(threshold, threshold, false) {}
  Tensor operator()(const Tensor& match_quality_matrix) const override;
};

class BalancedPositiveNegativeSampler {
 public:
  BalancedPositiveNegativeSampler(int64_t batch_size_per_image, double positive_fraction);
  // matched_idxs: per image, -1 ignored, 0 negative, >= 1 positive. Returns
  // per image uint8 masks of the sampled positives and negatives; the draws
  // are torch.randperm's on the default generator, as torchvision's.
  std::tuple<std::vector<Tensor>, std::vector<Tensor>> operator()(const std::vector<Tensor>& matched_idxs) const;

  int64_t batch_size_per_image;
  double positive_fraction;
};

}  // namespace torch::vision::models::detection::_utils
