#pragma once
// torchvision.ops.roi_align (Mask R-CNN's RoIAlign) and its module: average
// of bilinear samples over each output bin of each box; differentiable in the
// input (a forward and a backward kernel; the backward itself is not
// differentiable, as torchvision's).
#include <cstdint>
#include <ostream>
#include <vector>

#include "ember/core/arg.h"
#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/pimpl.h"

namespace torch::vision::ops {

// input Tensor[N, C, H, W]; boxes Tensor[K, 5] (batch index, x1, y1, x2, y2) or
// one Tensor[L, 4] per image; output Tensor[K, C, output_size...].
Tensor roi_align(const Tensor& input, const Tensor& boxes, IntArrayRef output_size, double spatial_scale = 1.0,
                 int64_t sampling_ratio = -1, bool aligned = false);
Tensor roi_align(const Tensor& input, const std::vector<Tensor>& boxes, IntArrayRef output_size,
                 double spatial_scale = 1.0, int64_t sampling_ratio = -1, bool aligned = false);

struct RoIAlignOptions {
  RoIAlignOptions(std::vector<int64_t> output_size, double spatial_scale, int64_t sampling_ratio)
      : output_size_(std::move(output_size)), spatial_scale_(spatial_scale), sampling_ratio_(sampling_ratio) {}
  RoIAlignOptions(int64_t output_size, double spatial_scale, int64_t sampling_ratio)
      : RoIAlignOptions(std::vector<int64_t>{output_size, output_size}, spatial_scale, sampling_ratio) {}
  TORCH_ARG(std::vector<int64_t>, output_size);
  TORCH_ARG(double, spatial_scale);
  TORCH_ARG(int64_t, sampling_ratio);
  TORCH_ARG(bool, aligned) = false;
};

class RoIAlignImpl : public nn::Cloneable<RoIAlignImpl> {
 public:
  explicit RoIAlignImpl(const RoIAlignOptions& options_) : options(options_) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input, const Tensor& rois);
  Tensor forward(const Tensor& input, const std::vector<Tensor>& rois);
  RoIAlignOptions options;
};
TORCH_MODULE(RoIAlign);

}  // namespace torch::vision::ops
