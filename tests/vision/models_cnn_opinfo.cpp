// OpInfo entries for the classification CNNs' blocks (eval mode, float64):
// each is a composition of Ember's differentiable layers, so gradcheck and
// gradgradcheck through a whole residual block check that they compose —
// the skip connections, squeeze-excitation's broadcast product, stochastic
// depth (the identity in eval) and the projections.
#include "autograd/opinfo.h"
#include "ember/vision/models/efficientnet.h"
#include "ember/vision/models/mobilenetv2.h"
#include "ember/vision/models/mobilenetv3.h"
#include "ember/vision/models/regnet.h"
#include "ember/vision/models/resnet.h"

namespace torch::testing {
namespace {

namespace models = vision::models;
namespace vops = vision::ops;

// The block in eval mode, in float64, built once.
template <typename Holder>
std::function<Tensor(const variable_list&)> block_fn(Holder block) {
  block->to(kDouble);
  block->eval();
  return [block](const variable_list& x) mutable { return block(x[0]); };
}

OpInfo block_op(const char* name, std::function<Tensor(const variable_list&)> f, std::vector<int64_t> shape) {
  OpInfo o = single_output_op(name, std::move(f), {std::move(shape)}, -1, 1, 3601);
  o.forward_ad = false;  // modules are checked by reverse mode; forward mode is the layers' own entries
  return o;
}

RegisterOps reg({
    block_op("vision::models::BasicBlock(eval)", block_fn(models::BasicBlock(models::BlockOptions(4, 4))),
             {1, 4, 5, 5}),
    block_op("vision::models::Bottleneck(eval, downsample, groups)",
             block_fn(models::Bottleneck(models::BlockOptions(4, 2).stride(2).groups(2).downsample(
                 nn::Sequential(nn::Conv2d(nn::Conv2dOptions(4, 8, 1).stride(2).bias(false)), nn::BatchNorm2d(8))))),
             {1, 4, 5, 5}),
    block_op("vision::models::mobilenetv2::InvertedResidual(eval)",
             block_fn(models::mobilenetv2::InvertedResidual(4, 4, 1, 2)), {1, 4, 4, 4}),
    block_op("vision::models::mobilenetv3::InvertedResidual(eval, se, hardswish)",
             block_fn(models::mobilenetv3::InvertedResidual(
                 models::mobilenetv3::InvertedResidualConfig(8, 3, 16, 8, true, "HS", 1, 1, 1.0),
                 vops::batch_norm2d_layer())),
             {1, 8, 4, 4}),
    block_op("vision::models::MBConv(eval)",
             block_fn(models::MBConv(models::MBConvConfig(2, 3, 1, 8, 8, 1), 0.2, vops::batch_norm2d_layer())),
             {1, 8, 4, 4}),
    block_op("vision::models::FusedMBConv(eval)",
             block_fn(models::MBConv(models::FusedMBConvConfig(2, 3, 1, 8, 8, 1), 0.2, vops::batch_norm2d_layer())),
             {1, 8, 4, 4}),
    block_op("vision::models::ResBottleneckBlock(eval, se, proj)",
             block_fn(models::ResBottleneckBlock(4, 8, 2, vops::batch_norm2d_layer(), vops::relu_layer(), 4, 1.0,
                                                 0.25)),
             {1, 4, 5, 5}),
});

}  // namespace
}  // namespace torch::testing
