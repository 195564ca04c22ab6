#pragma once
// transforms.v2.MixUp and transforms.v2.CutMix: mix a batch of images [B, C, H, W]
// with itself rolled by one along the batch, and their int64 labels [B] as
// one-hot vectors with the same weights. lam ~ Beta(alpha, alpha), drawn as
// torch.distributions.Beta does (the core's _sample_dirichlet, so a seed gives PyTorch's lam);
// CutMix's box position uses torch.randint as torchvision.
#include <cstdint>
#include <tuple>

#include "ember/core/arg.h"
#include "ember/vision/transforms/transform_module.h"

namespace torch::vision::transforms::v2 {

struct MixUpOptions {
  MixUpOptions(int64_t num_classes) : num_classes_(num_classes) {}  // NOLINT
  TORCH_ARG(int64_t, num_classes);
  TORCH_ARG(double, alpha) = 1.0;
};
using CutMixOptions = MixUpOptions;

class MixUpImpl : public nn::Cloneable<MixUpImpl> {
 public:
  explicit MixUpImpl(MixUpOptions options);
  void reset() override;
  // (mixed images, mixed one-hot labels [B, num_classes] as float)
  std::tuple<Tensor, Tensor> forward(Tensor images, Tensor labels);
  MixUpOptions options;
};
EMBER_VISION_TRANSFORM_MODULE(MixUp);

class CutMixImpl : public nn::Cloneable<CutMixImpl> {
 public:
  explicit CutMixImpl(CutMixOptions options);
  void reset() override;
  std::tuple<Tensor, Tensor> forward(Tensor images, Tensor labels);
  CutMixOptions options;
};
EMBER_VISION_TRANSFORM_MODULE(CutMix);

}  // namespace torch::vision::transforms::v2
