#pragma once
// Options of the loss modules and their nn::functional forms, as
// torch/nn/options/loss.h. XFuncOptions is XOptions, as in LibTorch; options
// whose only field is the reduction convert from it: MSELossOptions(torch::kSum).
#include <cstdint>
#include <functional>
#include <optional>
#include <variant>

#include "ember/core/arg.h"
#include "ember/core/tensor.h"
#include "ember/nn/enum.h"
#include "ember/nn/options/distance.h"
#include "ember/ops/nn/loss.h"

namespace torch::nn {

using reduction_t = std::variant<enumtype::kNone, enumtype::kMean, enumtype::kSum>;
// KLDivLoss alone also accepts kBatchMean.
using kldiv_reduction_t = std::variant<enumtype::kNone, enumtype::kBatchMean, enumtype::kSum, enumtype::kMean>;

// The at::Reduction value the ops take, and the tag's name (nn/options/loss.cpp).
int64_t reduction_value(const reduction_t& r);
std::string reduction_name(const reduction_t& r);

#define EMBER_LOSS_REDUCTION_CTOR(Name)                                  \
  Name() = default;                                                      \
  /* implicit */ Name(enumtype::kNone r) : reduction_(r) {} /* NOLINT */ \
  /* implicit */ Name(enumtype::kMean r) : reduction_(r) {} /* NOLINT */ \
  /* implicit */ Name(enumtype::kSum r) : reduction_(r) {}  /* NOLINT */

// Losses whose only option is the reduction.
#define EMBER_LOSS_REDUCTION_ONLY(Name)        \
  struct Name##Options {                       \
    EMBER_LOSS_REDUCTION_CTOR(Name##Options)   \
    TORCH_ARG(reduction_t, reduction) = kMean; \
  }

EMBER_LOSS_REDUCTION_ONLY(L1Loss);
EMBER_LOSS_REDUCTION_ONLY(MSELoss);
EMBER_LOSS_REDUCTION_ONLY(SoftMarginLoss);
EMBER_LOSS_REDUCTION_ONLY(MultiLabelMarginLoss);
#undef EMBER_LOSS_REDUCTION_ONLY

struct KLDivLossOptions {
  KLDivLossOptions() = default;
  /* implicit */ KLDivLossOptions(enumtype::kNone r) : reduction_(r) {}       // NOLINT
  /* implicit */ KLDivLossOptions(enumtype::kBatchMean r) : reduction_(r) {}  // NOLINT
  /* implicit */ KLDivLossOptions(enumtype::kSum r) : reduction_(r) {}        // NOLINT
  /* implicit */ KLDivLossOptions(enumtype::kMean r) : reduction_(r) {}       // NOLINT
  TORCH_ARG(kldiv_reduction_t, reduction) = kMean;
  TORCH_ARG(bool, log_target) = false;
};

struct BCELossOptions {
  TORCH_ARG(Tensor, weight) = {};
  TORCH_ARG(reduction_t, reduction) = kMean;
};

struct BCEWithLogitsLossOptions {
  TORCH_ARG(Tensor, weight) = {};
  TORCH_ARG(reduction_t, reduction) = kMean;
  TORCH_ARG(Tensor, pos_weight) = {};
};

struct HingeEmbeddingLossOptions {
  TORCH_ARG(double, margin) = 1.0;
  TORCH_ARG(reduction_t, reduction) = kMean;
};

struct MultiMarginLossOptions {
  TORCH_ARG(int64_t, p) = 1;
  TORCH_ARG(double, margin) = 1.0;
  TORCH_ARG(Tensor, weight) = {};
  TORCH_ARG(reduction_t, reduction) = kMean;
};

struct CosineEmbeddingLossOptions {
  TORCH_ARG(double, margin) = 0.0;
  TORCH_ARG(reduction_t, reduction) = kMean;
};

struct MultiLabelSoftMarginLossOptions {
  TORCH_ARG(Tensor, weight) = {};
  TORCH_ARG(reduction_t, reduction) = kMean;
};

struct TripletMarginLossOptions {
  TORCH_ARG(double, margin) = 1.0;
  TORCH_ARG(double, p) = 2.0;
  TORCH_ARG(double, eps) = 1e-6;
  TORCH_ARG(bool, swap) = false;
  TORCH_ARG(reduction_t, reduction) = kMean;
};

// TripletMarginWithDistanceLoss(TripletMarginWithDistanceLossOptions().distance_function(f))
struct TripletMarginWithDistanceLossOptions {
  using distance_function_t = std::function<Tensor(const Tensor&, const Tensor&)>;
  using reduction_t = std::variant<enumtype::kNone, enumtype::kMean, enumtype::kSum>;
  TORCH_ARG(std::optional<distance_function_t>, distance_function) = std::nullopt;  // pairwise_distance
  TORCH_ARG(double, margin) = 1.0;
  TORCH_ARG(bool, swap) = false;
  TORCH_ARG(reduction_t, reduction) = kMean;
};

struct CTCLossOptions {
  TORCH_ARG(int64_t, blank) = 0;
  TORCH_ARG(reduction_t, reduction) = kMean;
  TORCH_ARG(bool, zero_infinity) = false;
};

struct SmoothL1LossOptions {
  EMBER_LOSS_REDUCTION_CTOR(SmoothL1LossOptions)
  TORCH_ARG(reduction_t, reduction) = kMean;
  TORCH_ARG(double, beta) = 1.0;
};

struct HuberLossOptions {
  EMBER_LOSS_REDUCTION_CTOR(HuberLossOptions)
  TORCH_ARG(reduction_t, reduction) = kMean;
  TORCH_ARG(double, delta) = 1.0;
};

struct PoissonNLLLossOptions {
  TORCH_ARG(bool, log_input) = true;
  TORCH_ARG(bool, full) = false;
  TORCH_ARG(double, eps) = 1e-8;
  TORCH_ARG(reduction_t, reduction) = kMean;
};

struct MarginRankingLossOptions {
  TORCH_ARG(double, margin) = 0.0;
  TORCH_ARG(reduction_t, reduction) = kMean;
};

struct NLLLossOptions {
  TORCH_ARG(Tensor, weight) = {};
  TORCH_ARG(int64_t, ignore_index) = -100;
  TORCH_ARG(reduction_t, reduction) = kMean;
};

struct CrossEntropyLossOptions {
  TORCH_ARG(Tensor, weight) = {};
  TORCH_ARG(int64_t, ignore_index) = -100;
  TORCH_ARG(reduction_t, reduction) = kMean;
  TORCH_ARG(double, label_smoothing) = 0.0;
};
#undef EMBER_LOSS_REDUCTION_CTOR

namespace functional {
using L1LossFuncOptions = L1LossOptions;
using MSELossFuncOptions = MSELossOptions;
using SoftMarginLossFuncOptions = SoftMarginLossOptions;
using MultilabelMarginLossFuncOptions = MultiLabelMarginLossOptions;
using KLDivFuncOptions = KLDivLossOptions;
using BinaryCrossEntropyFuncOptions = BCELossOptions;
using BinaryCrossEntropyWithLogitsFuncOptions = BCEWithLogitsLossOptions;
using HingeEmbeddingLossFuncOptions = HingeEmbeddingLossOptions;
using MultiMarginLossFuncOptions = MultiMarginLossOptions;
using CosineEmbeddingLossFuncOptions = CosineEmbeddingLossOptions;
using MultilabelSoftMarginLossFuncOptions = MultiLabelSoftMarginLossOptions;
using TripletMarginLossFuncOptions = TripletMarginLossOptions;
using CTCLossFuncOptions = CTCLossOptions;
using TripletMarginWithDistanceLossFuncOptions = TripletMarginWithDistanceLossOptions;
using SmoothL1LossFuncOptions = SmoothL1LossOptions;
using HuberLossFuncOptions = HuberLossOptions;
using PoissonNLLLossFuncOptions = PoissonNLLLossOptions;
using MarginRankingLossFuncOptions = MarginRankingLossOptions;
using NLLLossFuncOptions = NLLLossOptions;
using CrossEntropyFuncOptions = CrossEntropyLossOptions;

// F::normalize(x, F::NormalizeFuncOptions().p(1).dim(-1))
struct NormalizeFuncOptions {
  TORCH_ARG(double, p) = 2.0;
  TORCH_ARG(int64_t, dim) = 1;
  TORCH_ARG(double, eps) = 1e-12;
  TORCH_ARG(std::optional<Tensor>, out) = std::nullopt;  // written (and resized) when given
};
}  // namespace functional

}  // namespace torch::nn
