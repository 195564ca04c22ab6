#pragma once
// The segmentation builders' shared preamble (internal).
#include <cstdint>
#include <optional>
#include <string>

#include "ember/nn/module.h"

namespace torch::vision::models::segmentation::builder_detail {

struct Resolved {
  int64_t num_classes;
  bool aux_loss;
};

// torchvision's _ovewrite_value_param: a checkpoint fixes num_classes 21 (and aux_loss true when has_aux).
Resolved resolve(const char* builder, const std::optional<std::string>& weights, std::optional<int64_t> num_classes,
                 std::optional<bool> aux_loss, bool has_aux = true);

// Loads a torchvision state_dict from path (strict).
void load_checkpoint(nn::Module& model, const std::string& path);

}  // namespace torch::vision::models::segmentation::builder_detail
