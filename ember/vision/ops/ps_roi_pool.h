#pragma once
// torchvision.ops.ps_roi_pool (R-FCN's position-sensitive RoIPool) and its
// module: output channel c of bin (i, j) averages input channel
// (c * PH + i) * PW + j over the bin; differentiable in the input.
#include <cstdint>
#include <ostream>
#include <vector>

#include "ember/core/arg.h"
#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/pimpl.h"

namespace torch::vision::ops {

// input Tensor[N, C, H, W] with C a multiple of PH * PW; output
// Tensor[K, C / (PH * PW), PH, PW].
Tensor ps_roi_pool(const Tensor& input, const Tensor& boxes, IntArrayRef output_size, double spatial_scale = 1.0);
Tensor ps_roi_pool(const Tensor& input, const std::vector<Tensor>& boxes, IntArrayRef output_size,
                   double spatial_scale = 1.0);

struct PSRoIPoolOptions {
  PSRoIPoolOptions(std::vector<int64_t> output_size, double spatial_scale)
      : output_size_(std::move(output_size)), spatial_scale_(spatial_scale) {}
  PSRoIPoolOptions(int64_t output_size, double spatial_scale)
      : PSRoIPoolOptions(std::vector<int64_t>{output_size, output_size}, spatial_scale) {}
  TORCH_ARG(std::vector<int64_t>, output_size);
  TORCH_ARG(double, spatial_scale);
};

class PSRoIPoolImpl : public nn::Cloneable<PSRoIPoolImpl> {
 public:
  explicit PSRoIPoolImpl(const PSRoIPoolOptions& options_) : options(options_) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input, const Tensor& rois);
  Tensor forward(const Tensor& input, const std::vector<Tensor>& rois);
  PSRoIPoolOptions options;
};
TORCH_MODULE(PSRoIPool);

}  // namespace torch::vision::ops
