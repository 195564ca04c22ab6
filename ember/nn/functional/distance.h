#pragma once
// nn::functional::cosine_similarity / pairwise_distance / pdist (compositions
// in ember/ops/nn/loss_distance.cpp and ember/ops/nn/distance.cpp).
#include "ember/nn/options/distance.h"
#include "ember/ops/nn/distance.h"
#include "ember/ops/nn/loss.h"

namespace torch::nn::functional {

inline Tensor cosine_similarity(const Tensor& x1, const Tensor& x2, const CosineSimilarityFuncOptions& options = {}) {
  return ember::cosine_similarity(x1, x2, options.dim(), options.eps());
}
inline Tensor pdist(const Tensor& input, double p = 2) { return ember::pdist(input, p); }
inline Tensor pairwise_distance(const Tensor& x1, const Tensor& x2, const PairwiseDistanceFuncOptions& options = {}) {
  return ember::pairwise_distance(x1, x2, options.p(), options.eps(), options.keepdim());
}

}  // namespace torch::nn::functional
