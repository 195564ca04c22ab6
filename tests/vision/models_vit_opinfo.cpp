// OpInfo entries for the Swin attention composition
// (ember/vision/models/swin_transformer.cpp): gradients reach the input, the
// projections, the relative position bias and v2's logit scale through
// padding, roll, the window reshapes and the shifted-window mask.
#include "autograd/opinfo.h"
#include "ember/vision/models/swin_transformer.h"

namespace torch::testing {
namespace {

using Shapes = std::vector<std::vector<int64_t>>;

OpInfo op(const char* name, std::function<Tensor(const variable_list&)> f, Shapes shapes) {
  return single_output_op(name, std::move(f), std::move(shapes), -1, 1, 3607);
}

// A 5x6 map padded to the 4x3 windows (8x6), shifted by (2, 1).
const Shapes kShapes = {{1, 5, 6, 4}, {12, 4}, {4, 4}, {1, 2, 12, 12}, {12}, {4}};

RegisterOps reg({
    op(
        "vision::models::shifted_window_attention(shifted, padded)",
        [](const variable_list& x) {
          return vision::models::shifted_window_attention(x[0], x[1], x[2], x[3], {4, 3}, 2, {2, 1}, 0.0, 0.0, x[4],
                                                          x[5]);
        },
        kShapes),
    op(
        "vision::models::shifted_window_attention(v2 logit_scale)",
        [](const variable_list& x) {
          return vision::models::shifted_window_attention(x[0], x[1], x[2], x[3], {4, 3}, 2, {2, 1}, 0.0, 0.0, x[4],
                                                          x[5], x[6]);
        },
        // Unpadded: padded tokens have k = 0 (v2 zeroes the key bias), where the
        // second derivative of the norm is nan (in PyTorch too).
        Shapes{{1, 8, 6, 4}, {12, 4}, {4, 4}, {1, 2, 12, 12}, {12}, {4}, {2, 1, 1}}),
});

}  // namespace
}  // namespace torch::testing
