#pragma once
// Options of the common loss modules and functionals, as torch/nn/options/loss.h:
// MSELossOptions(torch::kSum), CrossEntropyLossOptions().ignore_index(0).label_smoothing(0.1).
#include <cstdint>
#include <variant>

#include "ember/core/arg.h"
#include "ember/core/tensor.h"
#include "ember/nn/enum.h"

namespace ember::nn {

using loss_reduction_t = std::variant<enumtype::kNone, enumtype::kMean, enumtype::kSum>;

// Constructible from the reduction tag alone, as LibTorch's TORCH_OPTIONS_CTOR_VARIANT_ARG3.
#define EMBER_LOSS_REDUCTION_CTOR(Name)                   \
  Name() = default;                                       \
  Name(enumtype::kNone r) : reduction_(r) {} /* NOLINT */ \
  Name(enumtype::kMean r) : reduction_(r) {} /* NOLINT */ \
  Name(enumtype::kSum r) : reduction_(r) {}  /* NOLINT */ \
  using reduction_t = loss_reduction_t;                   \
  TORCH_ARG(reduction_t, reduction) = kMean

struct L1LossOptions {
  EMBER_LOSS_REDUCTION_CTOR(L1LossOptions);
};
struct MSELossOptions {
  EMBER_LOSS_REDUCTION_CTOR(MSELossOptions);
};
struct BCELossOptions {
  EMBER_LOSS_REDUCTION_CTOR(BCELossOptions);
  TORCH_ARG(Tensor, weight) = {};
};
struct BCEWithLogitsLossOptions {
  EMBER_LOSS_REDUCTION_CTOR(BCEWithLogitsLossOptions);
  TORCH_ARG(Tensor, weight) = {};
  TORCH_ARG(Tensor, pos_weight) = {};
};
struct NLLLossOptions {
  EMBER_LOSS_REDUCTION_CTOR(NLLLossOptions);
  TORCH_ARG(Tensor, weight) = {};
  TORCH_ARG(int64_t, ignore_index) = -100;
};
struct CrossEntropyLossOptions {
  EMBER_LOSS_REDUCTION_CTOR(CrossEntropyLossOptions);
  TORCH_ARG(Tensor, weight) = {};
  TORCH_ARG(int64_t, ignore_index) = -100;
  TORCH_ARG(double, label_smoothing) = 0.0;
};
struct SmoothL1LossOptions {
  EMBER_LOSS_REDUCTION_CTOR(SmoothL1LossOptions);
  TORCH_ARG(double, beta) = 1.0;
};
struct HuberLossOptions {
  EMBER_LOSS_REDUCTION_CTOR(HuberLossOptions);
  TORCH_ARG(double, delta) = 1.0;
};
#undef EMBER_LOSS_REDUCTION_CTOR

// KLDiv also has kBatchMean (sum divided by the batch size).
struct KLDivLossOptions {
  using reduction_t = std::variant<enumtype::kNone, enumtype::kBatchMean, enumtype::kSum, enumtype::kMean>;
  KLDivLossOptions() = default;
  KLDivLossOptions(enumtype::kNone r) : reduction_(r) {}       // NOLINT
  KLDivLossOptions(enumtype::kBatchMean r) : reduction_(r) {}  // NOLINT
  KLDivLossOptions(enumtype::kSum r) : reduction_(r) {}        // NOLINT
  KLDivLossOptions(enumtype::kMean r) : reduction_(r) {}       // NOLINT
  TORCH_ARG(reduction_t, reduction) = kMean;
  TORCH_ARG(bool, log_target) = false;
};

namespace functional {
using L1LossFuncOptions = L1LossOptions;
using MSELossFuncOptions = MSELossOptions;
using BinaryCrossEntropyFuncOptions = BCELossOptions;
using BinaryCrossEntropyWithLogitsFuncOptions = BCEWithLogitsLossOptions;
using NLLLossFuncOptions = NLLLossOptions;
using CrossEntropyFuncOptions = CrossEntropyLossOptions;
using SmoothL1LossFuncOptions = SmoothL1LossOptions;
using HuberLossFuncOptions = HuberLossOptions;
using KLDivFuncOptions = KLDivLossOptions;
}  // namespace functional

}  // namespace ember::nn
