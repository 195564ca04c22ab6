#pragma once
// torchvision.ops.ps_roi_align (R-FCN's position-sensitive RoIAlign) and its
// module: output channel c of bin (i, j) averages bilinear samples of input
// channel (c * PH + i) * PW + j; differentiable in the input.
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
Tensor ps_roi_align(const Tensor& input, const Tensor& boxes, IntArrayRef output_size, double spatial_scale = 1.0,
                    int64_t sampling_ratio = -1);
Tensor ps_roi_align(const Tensor& input, const std::vector<Tensor>& boxes, IntArrayRef output_size,
                    double spatial_scale = 1.0, int64_t sampling_ratio = -1);

struct PSRoIAlignOptions {
  PSRoIAlignOptions(std::vector<int64_t> output_size, double spatial_scale, int64_t sampling_ratio)
      : output_size_(std::move(output_size)), spatial_scale_(spatial_scale), sampling_ratio_(sampling_ratio) {}
  PSRoIAlignOptions(int64_t output_size, double spatial_scale, int64_t sampling_ratio)
      : PSRoIAlignOptions(std::vector<int64_t>{output_size, output_size}, spatial_scale, sampling_ratio) {}
  TORCH_ARG(std::vector<int64_t>, output_size);
  TORCH_ARG(double, spatial_scale);
  TORCH_ARG(int64_t, sampling_ratio);
};

class PSRoIAlignImpl : public nn::Cloneable<PSRoIAlignImpl> {
 public:
  explicit PSRoIAlignImpl(const PSRoIAlignOptions& options_) : options(options_) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input, const Tensor& rois);
  Tensor forward(const Tensor& input, const std::vector<Tensor>& rois);
  PSRoIAlignOptions options;
};
TORCH_MODULE(PSRoIAlign);

}  // namespace torch::vision::ops
