#pragma once
// The base of every v2 transform module: forward(Sample) is the transform;
// forward(Tensor) treats a plain tensor as an image (v2's rule for a lone tensor).
#include <type_traits>
#include <utility>
#include <vector>

#include "ember/nn/cloneable.h"
#include "ember/vision/transforms/optional_list.h"
#include "ember/vision/transforms/transform_module.h"
#include "ember/vision/transforms/v2/sample.h"

namespace torch::vision::transforms::v2::detail {

using ::torch::vision::transforms::OptionalFloats;

template <typename Derived>
class SampleModule : public nn::Cloneable<Derived> {
 public:
  Tensor forward(Tensor image) {
    Sample sample;
    sample.image = tv_tensors::Image(std::move(image));
    Sample out = static_cast<Derived*>(this)->forward(std::move(sample));
    return Tensor(*out.image);
  }
};

// A module's fill for one member: masks are always filled with 0 (their background).
template <typename T>
OptionalFloats fill_for(const T& /*member*/, const OptionalFloats& fill) {
  if constexpr (std::is_same_v<T, tv_tensors::Mask>)
    return std::nullopt;
  else
    return fill;
}

}  // namespace torch::vision::transforms::v2::detail
