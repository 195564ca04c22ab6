// OpInfo entries for the ops behind the nn-gap modules that opinfo_conv.cpp and
// opinfo_nn_ops.cpp do not cover yet: the remaining adaptive pools, instance_norm
// in eval mode and with 3-D/unequal windows, local_response_norm on 4-D/5-D
// inputs, bilinear with batch dims, and the module-level compositions
// (F::pad modes through nn::functional, cosine_similarity along dim 0).
#include "ember/nn/functional.h"
#include "ember/nn/modules/local_response_norm.h"
#include "ember/ops/nn/linear.h"
#include "ember/ops/nn/normalization.h"
#include "ember/ops/nn/pool.h"
#include "opinfo.h"

namespace torch::testing {
namespace {

using Shapes = std::vector<std::vector<int64_t>>;

OpInfo op(const char* name, std::function<Tensor(const variable_list&)> f, Shapes shapes, double lo = -1,
          double hi = 1) {
  return single_output_op(name, std::move(f), std::move(shapes), lo, hi, 113);
}

Tensor running(int64_t c, double base) { return arange(c, TensorOptions(kDouble)) * 0.1 + base; }

RegisterOps reg({
    // Overlapping windows of unequal size (7 -> 3 gives windows of 3, 3, 3 starting 0, 2, 4).
    op("adaptive_avg_pool1d(overlap)", [](const variable_list& x) { return adaptive_avg_pool1d(x[0], {3}); }, {{2, 7}}),
    op("adaptive_avg_pool3d",
       [](const variable_list& x) {
         return adaptive_avg_pool3d(x[0], {2, 3, 1});
       },
       {{1, 2, 3, 5, 2}}),
    op("adaptive_max_pool1d", [](const variable_list& x) { return std::get<0>(adaptive_max_pool1d(x[0], {3})); },
       {{2, 2, 7}}),
    op("adaptive_max_pool3d",
       [](const variable_list& x) {
         return std::get<0>(adaptive_max_pool3d(x[0], {2, 2, 1}));
       },
       {{1, 2, 3, 4, 3}}),
    op("adaptive_max_pool2d(unbatched)",
       [](const variable_list& x) {
         return std::get<0>(adaptive_max_pool2d(x[0], {3, 2}));
       },
       {{2, 5, 4}}),
    op("instance_norm(3d spatial)",
       [](const variable_list& x) { return instance_norm(x[0], x[1], x[2], {}, {}, true, 0.1, 1e-5, false); },
       {{2, 2, 2, 3, 2}, {2}, {2}}),
    op("instance_norm(eval, running stats)",
       [](const variable_list& x) {
         return instance_norm(x[0], x[1], x[2], running(3, -0.1), running(3, 0.6), false, 0.1, 1e-5, false);
       },
       {{2, 3, 4}, {3}, {3}}),
    op("instance_norm(no affine)",
       [](const variable_list& x) { return instance_norm(x[0], {}, {}, {}, {}, true, 0.1, 1e-5, false); }, {{3, 2, 5}}),
    op("local_response_norm(4d)", [](const variable_list& x) { return local_response_norm(x[0], 2, 0.2, 0.75, 1); },
       {{2, 5, 3, 2}}),
    op("local_response_norm(5d)", [](const variable_list& x) { return local_response_norm(x[0], 4, 0.5, 0.5, 2); },
       {{1, 4, 2, 2, 3}}),
    op("bilinear(batch dims, no bias)", [](const variable_list& x) { return bilinear(x[0], x[1], x[2]); },
       {{2, 3, 2}, {2, 3, 4}, {3, 2, 4}}),
    op("F::pad(reflect 3d)",
       [](const variable_list& x) {
         return nn::functional::pad(x[0], nn::functional::PadFuncOptions({1, 1, 0, 2, 1, 0}).mode(kReflect));
       },
       {{1, 1, 3, 3, 3}}),
    op("F::pad(replicate 1d)",
       [](const variable_list& x) {
         return nn::functional::pad(x[0], nn::functional::PadFuncOptions({2, 1}).mode(kReplicate));
       },
       {{2, 3, 4}}),
    op("F::cosine_similarity(dim 0)",
       [](const variable_list& x) {
         return nn::functional::cosine_similarity(x[0], x[1], nn::functional::CosineSimilarityFuncOptions().dim(0));
       },
       {{3, 4}, {3, 4}}),
    op("F::pad(reflect, negative pads crop)",
       [](const variable_list& x) {
         return nn::functional::pad(x[0], nn::functional::PadFuncOptions({2, -1, -1, 1}).mode(kReflect));
       },
       {{1, 2, 4, 4}}),
    op("F::pad(circular, negative pads crop first)",
       [](const variable_list& x) {
         return nn::functional::pad(x[0], nn::functional::PadFuncOptions({-1, 2}).mode(kCircular));
       },
       {{2, 2, 4}}),
    // F::unfold / F::fold: views of the padded input, and their adjoint (index_add into the image).
    op("F::unfold(dilation, padding, stride)",
       [](const variable_list& x) {
         return nn::functional::unfold(
             x[0], nn::functional::UnfoldFuncOptions({2, 3}).dilation({1, 2}).padding({1, 0}).stride({2, 1}));
       },
       {{2, 2, 4, 6}}),
    op("F::fold(overlapping blocks)",
       [](const variable_list& x) {
         return nn::functional::fold(x[0], nn::functional::FoldFuncOptions({3, 4}, 2).padding(1).stride({1, 2}));
       },
       {{2, 2 * 4, 4 * 3}}),
    op("F::conv2d(Conv2dFuncOptions)",
       [](const variable_list& x) {
         return nn::functional::conv2d(x[0], x[1],
                                       nn::functional::Conv2dFuncOptions().bias(x[2]).stride(2).padding(1).groups(2));
       },
       {{1, 4, 5, 5}, {2, 2, 3, 3}, {2}}),
    // Fractional max pooling with fixed window draws: a gather and a max over each window.
    op("F::fractional_max_pool2d(fixed samples)",
       [](const variable_list& x) {
         const Tensor samples = tensor({0.73, 0.21, 0.4, 0.9}, TensorOptions(kDouble)).view({1, 2, 2});
         return nn::functional::fractional_max_pool2d(
             x[0], nn::functional::FractionalMaxPool2dFuncOptions(2).output_size(3)._random_samples(samples));
       },
       {{1, 2, 5, 6}}),
    op("F::fractional_max_pool3d(output_ratio, unbatched)",
       [](const variable_list& x) {
         const Tensor samples = tensor({0.3, 0.6, 0.1}, TensorOptions(kDouble)).view({1, 1, 3});
         return nn::functional::fractional_max_pool3d(
             x[0], nn::functional::FractionalMaxPool3dFuncOptions(2).output_ratio(0.5)._random_samples(samples));
       },
       {{1, 4, 5, 6}}),
    op("CrossMapLRN2d(size 4)",
       [](const variable_list& x) {
         return nn::CrossMapLRN2d(nn::CrossMapLRN2dOptions(4).alpha(0.5).beta(0.75).k(2))->forward(x[0]);
       },
       {{2, 5, 2, 3}}),
    op("F::triplet_margin_with_distance_loss(swap, none)",
       [](const variable_list& x) {
         return nn::functional::triplet_margin_with_distance_loss(
             x[0], x[1], x[2],
             nn::functional::TripletMarginWithDistanceLossFuncOptions().margin(2.0).swap(true).reduction(kNone));
       },
       {{4, 3}, {4, 3}, {4, 3}}),
});

}  // namespace
}  // namespace torch::testing
