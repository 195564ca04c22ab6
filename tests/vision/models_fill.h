#pragma once
// What the detection and segmentation model tests share with their
// generators (tools/golden/gen_vision_detection*.py, gen_vision_segmentation.py):
// the deterministic parameter fill, the test images, and the check of a
// model's state_dict names, order and shapes against the stored ones.
#include <cstdint>
#include <string>

#include "common/golden.h"
#include "ember/core/tensor.h"
#include "ember/nn/module.h"

namespace vision_models_fill {

bool ends_with(const std::string& s, const std::string& suffix);

// The generators' fill(): entry k of the state_dict is scale * sin(0.37 i + k)
// (scale 1 / sqrt(fan_in) for tensors of rank >= 2, else 0.1); running_var is
// 0.5 + 0.25 (1 + sin(...)); num_batches_tracked is kept.
void fill(ember::nn::Module& m);

// The generators' test image k: 0.5 + 0.5 * sin(0.05 * (1 + 0.1 k) * i + k), [c, h, w].
ember::Tensor image(int k, int64_t c, int64_t h, int64_t w, ember::ScalarType dtype = ember::kFloat);

// Every "<prefix>.sd.<name>" entry of g ([index, *shape]) names a state_dict
// entry of m at that index with that shape, and m has no other entries.
void expect_state_dict_names(const ember::testing::Golden& g, const std::string& prefix, const ember::nn::Module& m);

}  // namespace vision_models_fill
