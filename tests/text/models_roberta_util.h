#pragma once
// What the RoBERTa tests share with tools/golden/gen_text_models.py: its
// configurations, its deterministic weights and its stored key lists.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "ember/nn/module.h"
#include "ember/text/models/roberta_model.h"

namespace text_models_test {

struct KeyShape {
  std::string name;
  std::vector<int64_t> shape;
  bool operator==(const KeyShape& o) const { return name == o.name && shape == o.shape; }
};

// tests/golden/text/models/<config>.keys: torchtext's state_dict names and shapes, in order.
std::vector<KeyShape> read_keys(const std::string& config);
std::vector<KeyShape> model_keys(const ember::nn::Module& model);
// Fills every tensor of the model's state_dict by the generator's formula (in state_dict order).
void fill_deterministic(ember::nn::Module& model);

// The generator's CONFIGS; dropout overrides the conf's and the head's when >= 0.
ember::text::models::RobertaModel build_config(const std::string& config, double dropout = -1.0);

}  // namespace text_models_test
