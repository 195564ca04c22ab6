#pragma once
// Options of the padding modules and F::pad, as torch/nn/options/padding.h.
// Pads are (left, right) pairs starting from the last dim.
#include <cstdint>
#include <variant>
#include <vector>

#include "ember/core/arg.h"
#include "ember/core/expanding_array.h"
#include "ember/nn/enum.h"

namespace torch::nn {

// ReflectionPad2dOptions({1, 2, 3, 4}) or ReflectionPad2dOptions(1).
template <size_t D>
struct ReflectionPadOptions {
  ReflectionPadOptions(ExpandingArray<D * 2> padding) : padding_(padding) {}  // NOLINT
  TORCH_ARG(ExpandingArray<D * 2>, padding);
};
using ReflectionPad1dOptions = ReflectionPadOptions<1>;
using ReflectionPad2dOptions = ReflectionPadOptions<2>;
using ReflectionPad3dOptions = ReflectionPadOptions<3>;

template <size_t D>
struct ReplicationPadOptions {
  ReplicationPadOptions(ExpandingArray<D * 2> padding) : padding_(padding) {}  // NOLINT
  TORCH_ARG(ExpandingArray<D * 2>, padding);
};
using ReplicationPad1dOptions = ReplicationPadOptions<1>;
using ReplicationPad2dOptions = ReplicationPadOptions<2>;
using ReplicationPad3dOptions = ReplicationPadOptions<3>;

struct ZeroPad2dOptions {
  ZeroPad2dOptions(ExpandingArray<4> padding) : padding_(padding) {}  // NOLINT
  TORCH_ARG(ExpandingArray<4>, padding);
};

// ConstantPad2dOptions({1, 1, 2, 0}, 3.5)
template <size_t D>
struct ConstantPadOptions {
  ConstantPadOptions(ExpandingArray<D * 2> padding, double value) : padding_(padding), value_(value) {}
  TORCH_ARG(ExpandingArray<D * 2>, padding);
  TORCH_ARG(double, value);
};
using ConstantPad1dOptions = ConstantPadOptions<1>;
using ConstantPad2dOptions = ConstantPadOptions<2>;
using ConstantPad3dOptions = ConstantPadOptions<3>;

namespace functional {
// F::pad(x, F::PadFuncOptions({1, 2}).mode(torch::kReflect))
struct PadFuncOptions {
  using mode_t = std::variant<enumtype::kConstant, enumtype::kReflect, enumtype::kReplicate, enumtype::kCircular>;
  PadFuncOptions(std::vector<int64_t> pad) : pad_(std::move(pad)) {}  // NOLINT
  TORCH_ARG(std::vector<int64_t>, pad);
  TORCH_ARG(mode_t, mode) = kConstant;
  TORCH_ARG(double, value) = 0;
};
}  // namespace functional

}  // namespace torch::nn
