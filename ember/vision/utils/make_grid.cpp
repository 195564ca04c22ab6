#include "ember/vision/utils/make_grid.h"

#include <algorithm>

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/ops/all_ops.h"

namespace torch::vision::utils {

namespace {

void normalize_in_place(Tensor& t, double low, double high) {
  t.clamp_(Scalar(low), Scalar(high));
  t.sub_(low).div_(std::max(high - low, 1e-5));
}

void normalize_range(Tensor t, const std::optional<std::tuple<double, double>>& range) {
  if (range)
    normalize_in_place(t, std::get<0>(*range), std::get<1>(*range));
  else
    normalize_in_place(t, t.min().item<double>(), t.max().item<double>());
}

}  // namespace

Tensor make_grid(const Tensor& input, int64_t nrow, int64_t padding, bool normalize,
                 std::optional<std::tuple<double, double>> value_range, bool scale_each, double pad_value) {
  const NoGradGuard no_grad;
  EMBER_CHECK(input.defined() && input.dim() >= 2 && input.dim() <= 4,
              "make_grid: expected a 2-D, 3-D or 4-D tensor, got ", input.defined() ? input.sizes() : IntArrayRef{});
  EMBER_CHECK(nrow > 0, "make_grid: nrow must be positive, got ", nrow);
  EMBER_CHECK(padding >= 0, "make_grid: padding must not be negative, got ", padding);
  Tensor t = input;
  if (t.dim() == 2) t = t.unsqueeze(0);
  if (t.dim() == 3) {
    if (t.size(0) == 1) t = cat({t, t, t}, 0);
    t = t.unsqueeze(0);
  }
  if (t.size(1) == 1) t = cat({t, t, t}, 1);
  if (normalize) {
    EMBER_CHECK(t.is_floating_point(), "make_grid: normalize needs a floating-point tensor, got ", t.dtype());
    t = t.clone();
    if (scale_each)
      for (int64_t i = 0; i < t.size(0); ++i) normalize_range(t[i], value_range);
    else
      normalize_range(t, value_range);
  }
  if (t.size(0) == 1) return t.squeeze(0);
  const int64_t nmaps = t.size(0), xmaps = std::min(nrow, nmaps), ymaps = (nmaps + xmaps - 1) / xmaps;
  const int64_t height = t.size(2) + padding, width = t.size(3) + padding;
  Tensor grid = full({t.size(1), height * ymaps + padding, width * xmaps + padding}, pad_value, t.options());
  for (int64_t k = 0; k < nmaps; ++k) {
    const int64_t y = k / xmaps, x = k % xmaps;
    grid.narrow(1, y * height + padding, height - padding).narrow(2, x * width + padding, width - padding).copy_(t[k]);
  }
  return grid;
}

Tensor make_grid(const std::vector<Tensor>& tensors, int64_t nrow, int64_t padding, bool normalize,
                 std::optional<std::tuple<double, double>> value_range, bool scale_each, double pad_value) {
  EMBER_CHECK(!tensors.empty(), "make_grid: the list of tensors is empty");
  return make_grid(stack(tensors, 0), nrow, padding, normalize, value_range, scale_each, pad_value);
}

}  // namespace torch::vision::utils
