#pragma once
// The segmentation builders' shared preamble (internal).
#include <cstdint>
#include <optional>
#include <string>

#include "ember/nn/module.h"
#include "ember/vision/models/weights.h"

namespace torch::vision::models::segmentation::builder_detail {

struct Resolved {
  int64_t num_classes;
  bool aux_loss;
};

// The builder preamble: weights must be of enum_name and name a file; they fix
// num_classes to their categories' count (VOC's 21) and aux_loss to true when
// has_aux, a different value raising (torchvision's _ovewrite_value_param).
Resolved resolve(const char* builder, const char* enum_name, const std::optional<Weights>& weights,
                 std::optional<int64_t> num_classes, std::optional<bool> aux_loss, bool has_aux = true);

// Loads the weights' state_dict from the file they point at (strict).
void load_checkpoint(nn::Module& model, const Weights& weights, const char* builder);

}  // namespace torch::vision::models::segmentation::builder_detail
