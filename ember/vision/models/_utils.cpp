#include "ember/vision/models/_utils.h"

#include <algorithm>

#include "ember/core/error.h"

namespace torch::vision::models {

int64_t _make_divisible(double v, int64_t divisor, std::optional<int64_t> min_value) {
  EMBER_CHECK(divisor > 0, "_make_divisible: divisor must be positive, got ", divisor);
  const int64_t floor_value = min_value.value_or(divisor);
  // Python's int() truncates, then // floors; v + divisor / 2 is positive here.
  const auto rounded = static_cast<int64_t>(v + static_cast<double>(divisor) / 2.0) / divisor * divisor;
  int64_t new_v = std::max(floor_value, rounded);
  if (static_cast<double>(new_v) < 0.9 * v) new_v += divisor;
  return new_v;
}

namespace detail {

void check_image_batch(const Tensor& x, const char* model, int64_t channels) {
  EMBER_CHECK(x.defined(), model, ": expected an image batch [N, ", channels, ", H, W], got an undefined tensor");
  EMBER_CHECK(x.dim() == 4 && x.size(1) == channels, model, ": expected an image batch [N, ", channels,
              ", H, W], got shape ", x.sizes());
  EMBER_CHECK(isFloatingType(x.scalar_type()), model,
              ": expected a floating-point image batch (convert uint8 images with convert_image_dtype), got dtype ",
              x.scalar_type());
}

}  // namespace detail

}  // namespace torch::vision::models

#include <cmath>

#include "ember/autograd/grad_mode.h"
#include "ember/nn/enum.h"
#include "ember/nn/init.h"
#include "ember/nn/modules/batchnorm.h"
#include "ember/nn/modules/conv.h"
#include "ember/nn/modules/linear.h"
#include "ember/nn/modules/normalization.h"

namespace torch::vision::models::detail {

void init_cnn_weights(nn::Module& model, LinearInit linear) {
  NoGradGuard no_grad;
  for (const auto& m : model.modules(/*include_self=*/false)) {
    if (auto* conv = m->as<nn::Conv2dImpl>()) {
      nn::init::kaiming_normal_(conv->weight, 0, kFanOut, kReLU);
      if (conv->bias.defined()) nn::init::zeros_(conv->bias);
    } else if (auto* bn = m->as<nn::BatchNorm2dImpl>()) {
      if (bn->weight.defined()) nn::init::ones_(bn->weight);
      if (bn->bias.defined()) nn::init::zeros_(bn->bias);
    } else if (auto* gn = m->as<nn::GroupNormImpl>()) {
      if (gn->weight.defined()) nn::init::ones_(gn->weight);
      if (gn->bias.defined()) nn::init::zeros_(gn->bias);
    } else if (auto* fc = m->as<nn::LinearImpl>()) {
      if (linear == LinearInit::kNormal001) {
        nn::init::normal_(fc->weight, 0, 0.01);
      } else if (linear == LinearInit::kUniformFanOut) {
        const double range = 1.0 / std::sqrt(static_cast<double>(fc->options.out_features()));
        nn::init::uniform_(fc->weight, -range, range);
      } else {
        continue;
      }
      if (fc->bias.defined()) nn::init::zeros_(fc->bias);
    }
  }
}

}  // namespace torch::vision::models::detail
