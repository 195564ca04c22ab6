#pragma once
// torchvision.models._utils helpers the architectures share.
#include <cstdint>
#include <optional>

#include "ember/core/tensor.h"

namespace torch::vision::models {

// The channel count nearest to v that is a multiple of divisor (at least
// min_value, default divisor) and not below 90 % of v; from the TF MobileNet code.
int64_t _make_divisible(double v, int64_t divisor, std::optional<int64_t> min_value = std::nullopt);

namespace detail {
// Raises naming `model` unless x is a floating [N, channels, H, W] batch.
void check_image_batch(const Tensor& x, const char* model, int64_t channels = 3);
}  // namespace detail

}  // namespace torch::vision::models

namespace torch::nn {
class Module;
}  // namespace torch::nn

namespace torch::vision::models::detail {

// How an architecture initialises its Linear layers after construction.
enum class LinearInit { kDefault, kNormal001, kUniformFanOut };

// torchvision's loop over self.modules(): every Conv2d kaiming_normal_(fan_out,
// relu) with zero bias, every BatchNorm2d/GroupNorm weight 1 and bias 0, and
// the Linear layers as `linear` says.
void init_cnn_weights(nn::Module& model, LinearInit linear);

}  // namespace torch::vision::models::detail
