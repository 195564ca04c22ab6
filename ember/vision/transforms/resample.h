#pragma once
// A separable resampler for resize's bilinear and bicubic modes (with and
// without antialias) on images that need no gradient. Ember's interpolate
// applies these filters as dense [out, in] matrices (so that matmul gives its
// gradients), which costs O(in) per output pixel; here each output pixel reads
// only the taps under its filter, as LibTorch's upsample kernels do. The
// weights are the same as interpolate's (PyTorch's formulas), so the results
// agree with it to float rounding.
#include <cstdint>

#include "ember/core/tensor.h"

namespace torch::vision::transforms::functional::detail {

// Whether separable_resize handles x: float32/float64 [N, C, H, W] that needs no gradient (no
// requires_grad under grad mode, no forward-mode tangent) and is not batched by vmap.
bool can_resample_separably(const Tensor& x);
// x resized to [N, C, out_h, out_w] (align_corners = false, scale = in / out).
Tensor separable_resize(const Tensor& x, int64_t out_h, int64_t out_w, bool cubic, bool antialias);

}  // namespace torch::vision::transforms::functional::detail
