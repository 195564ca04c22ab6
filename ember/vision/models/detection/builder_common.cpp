#include "ember/vision/models/detection/builder_common.h"

#include "ember/core/error.h"

namespace torch::vision::models::detection::builder_detail {

int64_t resolve_num_classes(const char* builder, const std::optional<Weights>& weights,
                            std::optional<int64_t> num_classes, int64_t default_classes) {
  if (num_classes) EMBER_CHECK(*num_classes > 0, builder, ": num_classes must be positive, got ", *num_classes);
  if (!weights) return num_classes.value_or(default_classes);
  return ::torch::vision::models::detail::ovewrite_value_param(builder, "num_classes", num_classes,
                                                               static_cast<int64_t>(weights->meta.categories.size()));
}

void verify_weights(const char* builder, const std::optional<Weights>& weights, const char* enum_name) {
  ::torch::vision::models::detail::verify_weights(weights, enum_name, builder);
}

ops::NormLayer backbone_norm_layer(bool is_trained) {
  if (!is_trained) return ops::batch_norm2d_layer();
  return [](int64_t n) { return nn::AnyModule(ops::FrozenBatchNorm2d(n)); };
}

void load_checkpoint(nn::Module& model, const Weights& weights, const char* builder) {
  ::torch::vision::models::detail::load_weights(model, weights, builder);
}

}  // namespace torch::vision::models::detection::builder_detail
