#include "ember/vision/models/segmentation/builder_common.h"

#include "ember/core/error.h"

namespace torch::vision::models::segmentation::builder_detail {

Resolved resolve(const char* builder, const char* enum_name, const std::optional<Weights>& weights,
                 std::optional<int64_t> num_classes, std::optional<bool> aux_loss, bool has_aux) {
  constexpr int64_t kVocClasses = 21;
  ::torch::vision::models::detail::verify_weights(weights, enum_name, builder);
  if (num_classes) EMBER_CHECK(*num_classes > 0, builder, ": num_classes must be positive, got ", *num_classes);
  if (!weights) return {num_classes.value_or(kVocClasses), aux_loss.value_or(false)};
  const int64_t classes = ::torch::vision::models::detail::ovewrite_value_param(
      builder, "num_classes", num_classes, static_cast<int64_t>(weights->meta.categories.size()));
  if (has_aux)
    EMBER_CHECK(!aux_loss || *aux_loss, builder,
                ": The parameter 'aux_loss' expected value True but got False instead.");
  return {classes, has_aux};
}

void load_checkpoint(nn::Module& model, const Weights& weights, const char* builder) {
  ::torch::vision::models::detail::load_weights(model, weights, builder);
}

}  // namespace torch::vision::models::segmentation::builder_detail
