#include "ember/vision/models/detection/anchor_utils.h"

#include <cmath>

#include "ember/core/error.h"
#include "ember/ops/all_ops.h"

namespace torch::vision::models::detection::anchor_utils {

namespace {

using indexing::Slice;

std::vector<std::pair<int64_t, int64_t>> grid_sizes_of(const std::vector<Tensor>& feature_maps, const char* op) {
  EMBER_CHECK(!feature_maps.empty(), op, ": no feature maps");
  std::vector<std::pair<int64_t, int64_t>> sizes;
  for (const Tensor& f : feature_maps) {
    EMBER_CHECK(f.dim() >= 2 && f.size(-1) > 0 && f.size(-2) > 0, op, ": bad feature map of shape ", f.sizes());
    sizes.emplace_back(f.size(-2), f.size(-1));
  }
  return sizes;
}

}  // namespace

AnchorGeneratorImpl::AnchorGeneratorImpl(const AnchorGeneratorOptions& options_) : options(options_) { reset(); }

void AnchorGeneratorImpl::reset() {
  EMBER_CHECK(options.sizes().size() == options.aspect_ratios().size(), "AnchorGenerator: ", options.sizes().size(),
              " lists of sizes for ", options.aspect_ratios().size(), " lists of aspect ratios");
  cell_anchors.clear();
  for (size_t i = 0; i < options.sizes().size(); ++i)
    cell_anchors.push_back(generate_anchors(options.sizes()[i], options.aspect_ratios()[i]));
}

Tensor AnchorGeneratorImpl::generate_anchors(const std::vector<int64_t>& scales,
                                             const std::vector<double>& aspect_ratios, ScalarType dtype) {
  EMBER_CHECK(!scales.empty() && !aspect_ratios.empty(), "AnchorGenerator: empty sizes or aspect ratios");
  for (double a : aspect_ratios)
    EMBER_CHECK(a > 0 && std::isfinite(a), "AnchorGenerator: aspect ratio ", a, " is not positive");
  // Computed in `dtype` exactly as torchvision, so the rounding agrees.
  const auto opts = TensorOptions().dtype(dtype);
  const Tensor s = tensor(std::vector<double>(scales.begin(), scales.end()), opts);
  const Tensor h_ratios = sqrt(tensor(aspect_ratios, opts));
  const Tensor w_ratios = 1 / h_ratios;
  const Tensor ws = (w_ratios.unsqueeze(1) * s.unsqueeze(0)).reshape({-1});
  const Tensor hs = (h_ratios.unsqueeze(1) * s.unsqueeze(0)).reshape({-1});
  return (stack({-ws, -hs, ws, hs}, 1) / 2).round();
}

std::vector<int64_t> AnchorGeneratorImpl::num_anchors_per_location() const {
  std::vector<int64_t> n;
  for (size_t i = 0; i < options.sizes().size(); ++i)
    n.push_back(static_cast<int64_t>(options.sizes()[i].size() * options.aspect_ratios()[i].size()));
  return n;
}

std::vector<Tensor> AnchorGeneratorImpl::grid_anchors(const std::vector<std::pair<int64_t, int64_t>>& grid_sizes,
                                                      const std::vector<std::pair<int64_t, int64_t>>& strides) const {
  EMBER_CHECK(grid_sizes.size() == strides.size() && grid_sizes.size() == cell_anchors.size(),
              "AnchorGenerator: ", grid_sizes.size(), " feature maps for ", cell_anchors.size(),
              " sets of sizes / aspect ratios; there needs to be a match between the number of feature maps passed "
              "and the number of sizes / aspect ratios specified");
  std::vector<Tensor> anchors;
  for (size_t i = 0; i < grid_sizes.size(); ++i) {
    const auto [gh, gw] = grid_sizes[i];
    const auto [sh, sw] = strides[i];
    const Tensor& base = cell_anchors[i];
    const Tensor shifts_x = arange(0, gw, TensorOptions().dtype(kLong)) * sw;
    const Tensor shifts_y = arange(0, gh, TensorOptions().dtype(kLong)) * sh;
    const auto grid = meshgrid({shifts_y, shifts_x}, "ij");
    const Tensor shift_y = grid[0].reshape({-1});
    const Tensor shift_x = grid[1].reshape({-1});
    const Tensor shifts = stack({shift_x, shift_y, shift_x, shift_y}, 1).to(base.scalar_type());
    anchors.push_back((shifts.view({-1, 1, 4}) + base.view({1, -1, 4})).reshape({-1, 4}));
  }
  return anchors;
}

std::vector<Tensor> AnchorGeneratorImpl::forward(const ImageList& image_list, const std::vector<Tensor>& feature_maps) {
  const auto grid_sizes = grid_sizes_of(feature_maps, "AnchorGenerator");
  const int64_t ih = image_list.tensors.size(-2), iw = image_list.tensors.size(-1);
  std::vector<std::pair<int64_t, int64_t>> strides;
  for (const auto& [gh, gw] : grid_sizes) strides.emplace_back(ih / gh, iw / gw);
  const ScalarType dtype = feature_maps[0].scalar_type();
  for (Tensor& c : cell_anchors) c = c.to(dtype);
  const Tensor all = cat(grid_anchors(grid_sizes, strides), 0);
  return std::vector<Tensor>(image_list.image_sizes.size(), all);
}

DefaultBoxGeneratorImpl::DefaultBoxGeneratorImpl(const DefaultBoxGeneratorOptions& options_) : options(options_) {
  reset();
}

void DefaultBoxGeneratorImpl::reset() {
  const auto& ars = options.aspect_ratios();
  const size_t n = ars.size();
  EMBER_CHECK(n > 0, "DefaultBoxGenerator: no aspect ratios");
  EMBER_CHECK(!options.steps() || options.steps()->size() == n,
              "DefaultBoxGenerator: aspect_ratios and steps should have the same length");
  if (options.scales()) {
    scales = *options.scales();
  } else if (n > 1) {
    const double range = options.max_ratio() - options.min_ratio();
    scales.clear();
    for (size_t k = 0; k < n; ++k)
      scales.push_back(options.min_ratio() + range * static_cast<double>(k) / (static_cast<double>(n) - 1.0));
    scales.push_back(1.0);
  } else {
    scales = {options.min_ratio(), options.max_ratio()};
  }
  EMBER_CHECK(scales.size() >= n + 1, "DefaultBoxGenerator: ", scales.size(), " scales for ", n,
              " feature maps (need one more than the maps)");
  _wh_pairs.clear();
  for (size_t k = 0; k < n; ++k) {
    const double s_k = scales[k];
    const double s_prime = std::sqrt(scales[k] * scales[k + 1]);
    std::vector<double> wh{s_k, s_k, s_prime, s_prime};
    for (int64_t ar : ars[k]) {
      EMBER_CHECK(ar > 0, "DefaultBoxGenerator: aspect ratio ", ar, " is not positive");
      const double sq = std::sqrt(static_cast<double>(ar));
      const double w = s_k * sq, h = s_k / sq;
      wh.insert(wh.end(), {w, h, h, w});
    }
    _wh_pairs.push_back(tensor(wh, TensorOptions().dtype(kFloat)).reshape({-1, 2}));
  }
}

std::vector<int64_t> DefaultBoxGeneratorImpl::num_anchors_per_location() const {
  std::vector<int64_t> n;
  for (const auto& r : options.aspect_ratios()) n.push_back(2 + 2 * static_cast<int64_t>(r.size()));
  return n;
}

Tensor DefaultBoxGeneratorImpl::grid_default_boxes(const std::vector<std::pair<int64_t, int64_t>>& grid_sizes,
                                                   std::pair<int64_t, int64_t> image_size, ScalarType dtype) const {
  EMBER_CHECK(grid_sizes.size() == _wh_pairs.size(), "DefaultBoxGenerator: ", grid_sizes.size(), " feature maps for ",
              _wh_pairs.size(), " lists of aspect ratios");
  std::vector<Tensor> boxes;
  for (size_t k = 0; k < grid_sizes.size(); ++k) {
    const auto [fh, fw] = grid_sizes[k];
    double x_f = static_cast<double>(fw), y_f = static_cast<double>(fh);
    if (options.steps()) {
      x_f = static_cast<double>(image_size.second) / static_cast<double>((*options.steps())[k]);
      y_f = static_cast<double>(image_size.first) / static_cast<double>((*options.steps())[k]);
    }
    // float32 as torchvision's default dtype, then cast.
    const Tensor sx = ((arange(0, fw, TensorOptions().dtype(kLong)).to(kFloat) + 0.5) / x_f).to(dtype);
    const Tensor sy = ((arange(0, fh, TensorOptions().dtype(kLong)).to(kFloat) + 0.5) / y_f).to(dtype);
    const auto grid = meshgrid({sy, sx}, "ij");
    const Tensor shift_x = grid[1].reshape({-1});
    const Tensor shift_y = grid[0].reshape({-1});
    const int64_t a = _wh_pairs[k].size(0);
    std::vector<Tensor> parts;
    for (int64_t i = 0; i < a; ++i) {
      parts.push_back(shift_x);
      parts.push_back(shift_y);
    }
    const Tensor shifts = stack(parts, -1).reshape({-1, 2});
    const Tensor wh = options.clip() ? _wh_pairs[k].clamp(0, 1) : _wh_pairs[k];
    boxes.push_back(cat({shifts, wh.to(dtype).repeat({fh * fw, 1})}, 1));
  }
  return cat(boxes, 0);
}

std::vector<Tensor> DefaultBoxGeneratorImpl::forward(const ImageList& image_list,
                                                     const std::vector<Tensor>& feature_maps) {
  const auto grid_sizes = grid_sizes_of(feature_maps, "DefaultBoxGenerator");
  const int64_t ih = image_list.tensors.size(-2), iw = image_list.tensors.size(-1);
  const Tensor d = grid_default_boxes(grid_sizes, {ih, iw}, feature_maps[0].scalar_type());
  const Tensor xy_size = tensor(std::vector<int64_t>{iw, ih}, TensorOptions().dtype(kLong));
  const Tensor xy = d.index({Slice(), Slice(0, 2)});
  const Tensor wh = d.index({Slice(), Slice(2, std::nullopt)});
  const Tensor boxes = cat({(xy - 0.5 * wh) * xy_size, (xy + 0.5 * wh) * xy_size}, -1);
  return std::vector<Tensor>(image_list.image_sizes.size(), boxes);
}

}  // namespace torch::vision::models::detection::anchor_utils
