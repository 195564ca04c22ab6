#pragma once
// Options of CosineSimilarity / PairwiseDistance and their functionals, as
// torch/nn/options/distance.h.
#include <cstdint>

#include "ember/core/arg.h"

namespace torch::nn {

// CosineSimilarityOptions().dim(1).eps(1e-8)
struct CosineSimilarityOptions {
  TORCH_ARG(int64_t, dim) = 1;
  TORCH_ARG(double, eps) = 1e-8;
};

// PairwiseDistanceOptions().p(2).eps(1e-6).keepdim(false)
struct PairwiseDistanceOptions {
  TORCH_ARG(double, p) = 2.0;
  TORCH_ARG(double, eps) = 1e-6;
  TORCH_ARG(bool, keepdim) = false;
};

namespace functional {
using CosineSimilarityFuncOptions = CosineSimilarityOptions;
using PairwiseDistanceFuncOptions = PairwiseDistanceOptions;
}  // namespace functional

}  // namespace torch::nn
