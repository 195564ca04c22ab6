#pragma once
// What the classification-model tests share: the deterministic weights and
// input of tools/golden/gen_vision_models_cnn.py, and the stored key lists.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ember/core/tensor.h"
#include "ember/nn/module.h"

namespace vision_models_cnn_test {

struct KeyShape {
  std::string name;
  std::vector<int64_t> shape;
};

// tests/golden/vision/models/cnn/<arch>.keys: torchvision's state_dict names and shapes, in order.
std::vector<KeyShape> read_keys(const std::string& arch);
// The generator's state_dict for those keys (see its docstring for the formula).
std::vector<std::pair<std::string, ember::Tensor>> deterministic_state_dict(const std::vector<KeyShape>& keys,
                                                                            double gain);
// The generator's [n, 3, size, size] input.
ember::Tensor deterministic_image(int64_t n, int64_t size);
// The model's state_dict names and shapes, to compare with read_keys().
std::vector<KeyShape> model_keys(const ember::nn::Module& model);

}  // namespace vision_models_cnn_test
