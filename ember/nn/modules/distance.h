#pragma once
// CosineSimilarity and PairwiseDistance, as torch/nn/modules/distance.h.
#include <ostream>

#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/functional/distance.h"
#include "ember/nn/pimpl.h"

namespace torch::nn {

class CosineSimilarityImpl : public Cloneable<CosineSimilarityImpl> {
 public:
  explicit CosineSimilarityImpl(const CosineSimilarityOptions& options_ = {}) : options(options_) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input1, const Tensor& input2) {
    return functional::cosine_similarity(input1, input2, options);
  }

  CosineSimilarityOptions options;
};
EMBER_NN_MODULE(CosineSimilarity);

class PairwiseDistanceImpl : public Cloneable<PairwiseDistanceImpl> {
 public:
  explicit PairwiseDistanceImpl(const PairwiseDistanceOptions& options_ = {}) : options(options_) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input1, const Tensor& input2) {
    return functional::pairwise_distance(input1, input2, options);
  }

  PairwiseDistanceOptions options;
};
EMBER_NN_MODULE(PairwiseDistance);

}  // namespace torch::nn
