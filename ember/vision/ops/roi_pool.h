#pragma once
// torchvision.ops.roi_pool (Fast R-CNN's RoIPool) and its module: the maximum
// over each output bin of each box (boxes snapped to the pixel grid);
// differentiable in the input (the gradient goes to each bin's argmax).
#include <cstdint>
#include <ostream>
#include <vector>

#include "ember/core/arg.h"
#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/pimpl.h"

namespace torch::vision::ops {

Tensor roi_pool(const Tensor& input, const Tensor& boxes, IntArrayRef output_size, double spatial_scale = 1.0);
Tensor roi_pool(const Tensor& input, const std::vector<Tensor>& boxes, IntArrayRef output_size,
                double spatial_scale = 1.0);

struct RoIPoolOptions {
  RoIPoolOptions(std::vector<int64_t> output_size, double spatial_scale)
      : output_size_(std::move(output_size)), spatial_scale_(spatial_scale) {}
  RoIPoolOptions(int64_t output_size, double spatial_scale)
      : RoIPoolOptions(std::vector<int64_t>{output_size, output_size}, spatial_scale) {}
  TORCH_ARG(std::vector<int64_t>, output_size);
  TORCH_ARG(double, spatial_scale);
};

class RoIPoolImpl : public nn::Cloneable<RoIPoolImpl> {
 public:
  explicit RoIPoolImpl(const RoIPoolOptions& options_) : options(options_) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input, const Tensor& rois);
  Tensor forward(const Tensor& input, const std::vector<Tensor>& rois);
  RoIPoolOptions options;
};
TORCH_MODULE(RoIPool);

}  // namespace torch::vision::ops
