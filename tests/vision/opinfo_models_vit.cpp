// OpInfo entries for the Swin attention composition
// (ember/vision/models/swin_transformer.cpp): gradients reach the input, the
// relative position bias and v2's logit scale through
// padding, roll, the window reshapes and the shifted-window mask. Sizes are
// minimal: gradgradcheck's cost grows with the square of the input count.
#include "autograd/opinfo.h"
#include "ember/vision/models/swin_transformer.h"

namespace torch::testing {
namespace {

using Shapes = std::vector<std::vector<int64_t>>;

OpInfo op(const char* name, std::function<Tensor(const variable_list&)> f, Shapes shapes) {
  return single_output_op(name, std::move(f), std::move(shapes), -1, 1, 3607);
}

// Fixed projection weights and biases (C = 4), of the inputs' dtype: their
// gradients are nn::functional::linear's, checked with it.
Tensor fixed(const Tensor& like, std::vector<int64_t> shape, double k) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return (sin(arange(n, like.options()) * 0.7 + k) * 0.5).reshape(shape);
}

Tensor swa(const variable_list& x, bool v2) {
  const Tensor qkv = fixed(x[0], {12, 4}, 0.0);
  const Tensor proj = fixed(x[0], {4, 4}, 1.0);
  const Tensor qkv_bias = fixed(x[0], {12}, 2.0);
  const Tensor proj_bias = fixed(x[0], {4}, 3.0);
  return vision::models::shifted_window_attention(x[0], qkv, proj, x[1], {2, 2}, 2, {1, 1}, 0.0, 0.0, qkv_bias,
                                                  proj_bias, v2 ? std::optional<Tensor>(x[2]) : std::nullopt);
}

RegisterOps reg({
    // A 3x3 map padded to the 2x2 windows (4x4), shifted by (1, 1).
    op("vision::models::shifted_window_attention(shifted, padded)",
       [](const variable_list& x) { return swa(x, false); }, {{1, 3, 3, 4}, {1, 2, 4, 4}}),
    // Unpadded (2x4, shifted along W only): padded tokens have k = 0 (v2 zeroes the key bias), where the
    // second derivative of the norm is nan (in PyTorch too).
    op("vision::models::shifted_window_attention(v2 logit_scale)", [](const variable_list& x) { return swa(x, true); },
       {{1, 2, 4, 4}, {1, 2, 4, 4}, {2, 1, 1}}),
});

}  // namespace
}  // namespace torch::testing
