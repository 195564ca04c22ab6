#pragma once
// Shared plumbing of the RoI ops (roi_align, roi_pool, ps_roi_align,
// ps_roi_pool): box list conversion, argument checks, and the bilinear taps
// the align variants sample with.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "ember/core/error.h"
#include "ember/core/tensor.h"

namespace torch::vision::ops::detail {

// Tensor[K, 5] rois (batch index, x1, y1, x2, y2) from a Tensor[K, 5] or a list
// of Tensor[L, 4], one per image.
Tensor rois_from_boxes(const char* op, const Tensor& boxes);
Tensor rois_from_boxes(const char* op, const std::vector<Tensor>& boxes);

// (height, width) from an int or a pair.
std::pair<int64_t, int64_t> pooled_size(const char* op, IntArrayRef output_size);

// Checks input Tensor[N, C, H, W] and rois (same floating dtype), and that every
// roi names an image of the batch and has finite coordinates.
void check_roi_args(const char* op, const Tensor& input, const Tensor& rois);

// A parallel_for grain for items of about `work` inner-loop steps each, so a
// small problem runs serially instead of paying for a thread dispatch.
inline int64_t grain_for(int64_t work) { return std::max<int64_t>(1, 32768 / std::max<int64_t>(work, 1)); }

// Runs f with a zero value of the input's C++ type (float or double).
template <typename F>
void dispatch_float(const char* op, ScalarType dtype, F&& f) {
  if (dtype == kFloat32) return f(float{});
  EMBER_CHECK(dtype == kFloat64, op, ": expected a float32 or float64 input, got ", dtype);
  f(double{});
}

// A bilinear sample of one plane: four positions and weights, all weights zero
// when the point lies outside [-1, H] x [-1, W] (torchvision's convention).
template <typename T>
struct BilinearTap {
  int64_t pos[4] = {0, 0, 0, 0};
  T w[4] = {0, 0, 0, 0};
};

template <typename T>
BilinearTap<T> bilinear_tap(int64_t height, int64_t width, T y, T x) {
  BilinearTap<T> t;
  if (y < -1.0 || y > static_cast<T>(height) || x < -1.0 || x > static_cast<T>(width)) return t;
  if (y <= 0) y = 0;
  if (x <= 0) x = 0;
  int64_t y_low = static_cast<int64_t>(y), x_low = static_cast<int64_t>(x), y_high, x_high;
  if (y_low >= height - 1) {
    y_high = y_low = height - 1;
    y = static_cast<T>(y_low);
  } else {
    y_high = y_low + 1;
  }
  if (x_low >= width - 1) {
    x_high = x_low = width - 1;
    x = static_cast<T>(x_low);
  } else {
    x_high = x_low + 1;
  }
  const T ly = y - static_cast<T>(y_low), lx = x - static_cast<T>(x_low), hy = 1 - ly, hx = 1 - lx;
  t.pos[0] = y_low * width + x_low;
  t.pos[1] = y_low * width + x_high;
  t.pos[2] = y_high * width + x_low;
  t.pos[3] = y_high * width + x_high;
  t.w[0] = hy * hx;
  t.w[1] = hy * lx;
  t.w[2] = ly * hx;
  t.w[3] = ly * lx;
  return t;
}

// The number of samples along one side of a bin: sampling_ratio, or adaptive
// (ceil(extent / bins), in the input's precision as torchvision) when it is not
// positive; checked to be finite and to fit an int.
template <typename T>
int64_t sampling_grid(const char* op, int64_t sampling_ratio, T extent, int64_t bins) {
  if (sampling_ratio > 0) return sampling_ratio;
  const T g = std::ceil(extent / static_cast<T>(bins));
  EMBER_CHECK(std::isfinite(g) && g < static_cast<T>(1 << 30), op, ": a box spans ", extent,
              " pixels, too large to sample");
  return static_cast<int64_t>(g);
}

}  // namespace torch::vision::ops::detail
