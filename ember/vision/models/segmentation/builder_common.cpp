#include "ember/vision/models/segmentation/builder_common.h"

#include "ember/core/error.h"
#include "ember/serialize/pt_reader.h"

namespace torch::vision::models::segmentation::builder_detail {

Resolved resolve(const char* builder, const std::optional<std::string>& weights, std::optional<int64_t> num_classes,
                 std::optional<bool> aux_loss, bool has_aux) {
  constexpr int64_t kVocClasses = 21;
  if (num_classes) EMBER_CHECK(*num_classes > 0, builder, ": num_classes must be positive, got ", *num_classes);
  if (!weights) return {num_classes.value_or(kVocClasses), aux_loss.value_or(false)};
  EMBER_CHECK(!num_classes || *num_classes == kVocClasses, builder,
              ": The parameter 'num_classes' expected value 21 but got ", *num_classes, " instead.");
  if (has_aux)
    EMBER_CHECK(!aux_loss || *aux_loss, builder,
                ": The parameter 'aux_loss' expected value True but got False instead.");
  return {kVocClasses, has_aux};
}

void load_checkpoint(nn::Module& model, const std::string& path) {
  model.load_state_dict(serialize::load_pytorch_state_dict(path));
}

}  // namespace torch::vision::models::segmentation::builder_detail
