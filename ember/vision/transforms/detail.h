#pragma once
// Helpers shared by the transforms' .cpp files (not public API): the checks
// torchvision's functional_tensor makes, and its "cast to float, work on
// [N, C, H, W], cast back with rounding" wrapper.
#include <cstdint>
#include <initializer_list>
#include <string_view>

#include "ember/core/tensor.h"

namespace torch::vision::transforms::functional::detail {

// Raises unless img has at least two dims (torchvision's _assert_image_tensor).
void check_image(const Tensor& img, std::string_view op);
// Raises unless img has at least min_ndim dims.
void check_ndim(const Tensor& img, int64_t min_ndim, std::string_view op);
// Raises unless the channel count (1 for 2-d images) is one of `permitted`.
void check_channels(const Tensor& img, std::initializer_list<int64_t> permitted, std::string_view op);
int64_t num_channels(const Tensor& img);

// The largest value of an integer image dtype (1 for floating dtypes).
double max_value(ScalarType dtype);

// An image viewed as [N, C, H, W] (leading dims flattened; [H, W] and [C, H, W]
// gain unit dims), in `work` dtype, remembering how to undo both.
struct Batched {
  Tensor x;
  std::vector<int64_t> shape;  // original shape
  ScalarType dtype;            // original dtype
  // Back to the original leading dims (with the new H, W) and dtype; integer
  // dtypes are rounded first, as torchvision's _cast_squeeze_out.
  Tensor restore(const Tensor& y) const;
};
// Casts to `work` unless img already has that dtype, or keep_float and img is
// float32/float64 (torchvision's _cast_squeeze_in with [float32, float64]).
Batched to_batched(const Tensor& img, ScalarType work, bool keep_float);

}  // namespace torch::vision::transforms::functional::detail
