#pragma once
// Enum-like tag types and constants used by nn options and nn::init, spelled
// as LibTorch's torch/enum.h: `torch::kReLU`, `torch::kFanIn`. Each tag is its
// own type so options can hold a std::variant of the allowed ones.
#include <string>
#include <variant>

#define EMBER_ENUM_TAG(name)                    \
  namespace enumtype {                          \
  struct k##name {                              \
    constexpr k##name() = default;              \
  };                                            \
  }                                             \
  inline constexpr enumtype::k##name k##name{}; \
  inline std::string enum_name(enumtype::k##name) { return "k" #name; }

#include "ember/core/namespace.h"

namespace torch {
EMBER_ENUM_TAG(Linear)
EMBER_ENUM_TAG(Conv1D)
EMBER_ENUM_TAG(Conv2D)
EMBER_ENUM_TAG(Conv3D)
EMBER_ENUM_TAG(ConvTranspose1D)
EMBER_ENUM_TAG(ConvTranspose2D)
EMBER_ENUM_TAG(ConvTranspose3D)
EMBER_ENUM_TAG(Sigmoid)
EMBER_ENUM_TAG(Tanh)
EMBER_ENUM_TAG(ReLU)
EMBER_ENUM_TAG(LeakyReLU)
EMBER_ENUM_TAG(FanIn)
EMBER_ENUM_TAG(FanOut)
EMBER_ENUM_TAG(Zeros)
EMBER_ENUM_TAG(Reflect)
EMBER_ENUM_TAG(Replicate)
EMBER_ENUM_TAG(Circular)
EMBER_ENUM_TAG(Same)
EMBER_ENUM_TAG(Valid)
EMBER_ENUM_TAG(Constant)
// Loss reductions (nn/options/loss.h).
EMBER_ENUM_TAG(None)
EMBER_ENUM_TAG(Mean)
EMBER_ENUM_TAG(Sum)
EMBER_ENUM_TAG(BatchMean)
// EmbeddingBag modes (kSum, kMean above).
EMBER_ENUM_TAG(Max)
EMBER_ENUM_TAG(GELU)
EMBER_ENUM_TAG(Nearest)
EMBER_ENUM_TAG(Bilinear)
EMBER_ENUM_TAG(Bicubic)
EMBER_ENUM_TAG(Trilinear)
EMBER_ENUM_TAG(Area)
EMBER_ENUM_TAG(NearestExact)
// grid_sample padding modes (kZeros above).
EMBER_ENUM_TAG(Border)
EMBER_ENUM_TAG(Reflection)
// RNN cell kinds (LibTorch's torch::kLSTM & co.; Ember's modules use nn::detail::RNNMode).
EMBER_ENUM_TAG(RNN_TANH)
EMBER_ENUM_TAG(RNN_RELU)
EMBER_ENUM_TAG(LSTM)
EMBER_ENUM_TAG(GRU)

namespace enumtype {
// "kReLU" for a variant holding kReLU (LibTorch's torch::enumtype::get_enum_name).
template <class... Tags>
std::string get_enum_name(const std::variant<Tags...>& v) {
  return std::visit([](auto tag) { return enum_name(tag); }, v);
}
}  // namespace enumtype
}  // namespace torch
