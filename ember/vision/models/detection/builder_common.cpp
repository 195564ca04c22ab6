#include "ember/vision/models/detection/builder_common.h"

#include "ember/core/error.h"
#include "ember/serialize/pt_reader.h"

namespace torch::vision::models::detection::builder_detail {

int64_t resolve_num_classes(const char* builder, const std::optional<std::string>& weights,
                            std::optional<int64_t> num_classes, int64_t default_classes) {
  if (num_classes) EMBER_CHECK(*num_classes > 0, builder, ": num_classes must be positive, got ", *num_classes);
  if (!weights) return num_classes.value_or(default_classes);
  EMBER_CHECK(!num_classes || *num_classes == default_classes, builder, ": The parameter 'num_classes' expected value ",
              default_classes, " but got ", *num_classes, " instead.");
  return default_classes;
}

ops::NormLayer backbone_norm_layer(bool is_trained) {
  if (!is_trained) return ops::batch_norm2d_layer();
  return [](int64_t n) { return nn::AnyModule(ops::FrozenBatchNorm2d(n)); };
}

void load_checkpoint(nn::Module& model, const std::string& path) {
  model.load_state_dict(serialize::load_pytorch_state_dict(path));
}

}  // namespace torch::vision::models::detection::builder_detail
