// OpInfo entries for convolution, pooling, padding and upsampling
// (formulas: ember/autograd/derivatives/nn_conv_grad.cpp, ember/autograd/derivatives/nn_pool_grad.cpp,
// ember/autograd/derivatives/nn_pad_grad.cpp; upsampling is matmul with interpolation matrices).
#include "opinfo.h"

namespace torch::testing {
namespace {

using Shapes = std::vector<std::vector<int64_t>>;

OpInfo op(const char* name, std::function<Tensor(const variable_list&)> f, Shapes shapes, const char* grad_fn = "") {
  OpInfo o;
  o.name = name;
  o.fn = [f](const variable_list& x) { return variable_list{f(x)}; };
  o.samples = [shapes] {
    variable_list in;
    uint64_t seed = 71;
    for (const auto& s : shapes) in.push_back(sample(s, -1, 1, seed++));
    return std::vector<variable_list>{in};
  };
  o.grad_fn_name = grad_fn;
  return o;
}

RegisterOps reg({
    op(
        "conv2d", [](const variable_list& x) { return conv2d(x[0], x[1], x[2], 1, 1); },
        {{2, 2, 4, 4}, {3, 2, 3, 3}, {3}}, "ConvolutionBackward0"),
    op("conv2d(stride,dilation,groups)",
       [](const variable_list& x) {
         return conv2d(x[0], x[1], {}, {2, 1}, {0, 1}, {1, 2}, 2);
       },
       {{1, 4, 5, 5}, {2, 2, 2, 2}}),
    op("conv1d", [](const variable_list& x) { return conv1d(x[0], x[1], x[2], 2, 1); }, {{2, 2, 6}, {2, 2, 3}, {2}}),
    op("conv3d", [](const variable_list& x) { return conv3d(x[0], x[1], {}, 1, 1); },
       {{1, 1, 3, 3, 3}, {2, 1, 2, 2, 2}}),
    op("conv2d(unbatched)", [](const variable_list& x) { return conv2d(x[0], x[1]); }, {{2, 4, 4}, {2, 2, 2, 2}}),
    op(
        "conv_transpose2d", [](const variable_list& x) { return conv_transpose2d(x[0], x[1], x[2], 2, 1, 1); },
        {{1, 2, 3, 3}, {2, 3, 3, 3}, {3}}, "ConvolutionBackward0"),
    op("conv_transpose1d(groups,dilation)",
       [](const variable_list& x) { return conv_transpose1d(x[0], x[1], {}, 2, 0, 0, 2, 2); }, {{1, 4, 3}, {4, 1, 2}}),
    op(
        "max_pool2d", [](const variable_list& x) { return max_pool2d(x[0], 2); }, {{2, 2, 4, 4}},
        "MaxPool2DWithIndicesBackward0"),
    op("max_pool2d(stride,pad,dil,ceil)", [](const variable_list& x) { return max_pool2d(x[0], 3, 2, 1, 1, true); },
       {{1, 2, 6, 5}}),
    op("max_pool1d", [](const variable_list& x) { return max_pool1d(x[0], 3, 2, 1); }, {{2, 2, 7}}),
    op("max_pool3d", [](const variable_list& x) { return max_pool3d(x[0], 2); }, {{1, 1, 4, 4, 4}}),
    op(
        "avg_pool2d", [](const variable_list& x) { return avg_pool2d(x[0], 3, 2, 1, true, false); }, {{1, 2, 6, 5}},
        "AvgPool2DBackward0"),
    op("avg_pool1d", [](const variable_list& x) { return avg_pool1d(x[0], 2); }, {{2, 2, 6}}),
    op("avg_pool3d(divisor)", [](const variable_list& x) { return avg_pool3d(x[0], 2, 1, 1, false, true, 3); },
       {{1, 1, 3, 3, 3}}),
    op(
        "adaptive_avg_pool2d",
        [](const variable_list& x) {
          return adaptive_avg_pool2d(x[0], {2, 3});
        },
        {{1, 2, 5, 7}}, "AdaptiveAvgPool2DBackward0"),
    op("adaptive_avg_pool1d", [](const variable_list& x) { return adaptive_avg_pool1d(x[0], {3}); }, {{2, 2, 7}}),
    op(
        "adaptive_max_pool2d",
        [](const variable_list& x) {
          return std::get<0>(adaptive_max_pool2d(x[0], {2, 3}));
        },
        {{1, 2, 5, 7}}, "AdaptiveMaxPool2DBackward0"),
    op(
        "constant_pad_nd",
        [](const variable_list& x) {
          return constant_pad_nd(x[0], {1, -1, 2, 0}, 0.5);
        },
        {{2, 3, 4}}, "ConstantPadNdBackward0"),
    op("pad(reflect)",
       [](const variable_list& x) {
         return pad(x[0], {2, 1, 1, 2}, "reflect");
       },
       {{1, 2, 3, 4}}),
    op("pad(replicate)",
       [](const variable_list& x) {
         return pad(x[0], {2, 1}, "replicate");
       },
       {{1, 2, 3}}),
    op("pad(circular)",
       [](const variable_list& x) {
         return pad(x[0], {1, 2, 2, 0}, "circular");
       },
       {{1, 1, 3, 4}}),
    op("upsample_bilinear2d",
       [](const variable_list& x) {
         return upsample_bilinear2d(x[0], {5, 4}, false);
       },
       {{1, 2, 3, 3}}),
    op("upsample_bicubic2d",
       [](const variable_list& x) {
         return upsample_bicubic2d(x[0], {4, 5}, true);
       },
       {{1, 1, 3, 3}}),
    op("upsample_nearest2d",
       [](const variable_list& x) {
         return upsample_nearest2d(x[0], {5, 6});
       },
       {{1, 2, 3, 3}}),
    op("pixel_shuffle", [](const variable_list& x) { return pixel_shuffle(x[0], 2); }, {{1, 8, 2, 2}}),
});

}  // namespace
}  // namespace torch::testing
