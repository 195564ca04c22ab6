#include "ember/vision/models/detection/transform.h"

#include <algorithm>
#include <cmath>

#include "ember/core/error.h"
#include "ember/nn/functional/upsampling.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/models/detection/roi_heads.h"

namespace torch::vision::models::detection::transform {

namespace {

using indexing::Slice;

// new / original in float32, as torchvision's tensor division.
double ratio(int64_t new_size, int64_t original) {
  return static_cast<double>(static_cast<float>(new_size) / static_cast<float>(original));
}

}  // namespace

GeneralizedRCNNTransformImpl::GeneralizedRCNNTransformImpl(const GeneralizedRCNNTransformOptions& options_)
    : options(options_) {
  reset();
}

void GeneralizedRCNNTransformImpl::reset() {
  EMBER_CHECK(!options.min_size().empty(), "GeneralizedRCNNTransform: min_size is empty");
  for (int64_t s : options.min_size()) EMBER_CHECK(s > 0, "GeneralizedRCNNTransform: min_size=", s, " is not positive");
  EMBER_CHECK(options.max_size() > 0, "GeneralizedRCNNTransform: max_size=", options.max_size(), " is not positive");
  EMBER_CHECK(!options.image_mean().empty() && options.image_mean().size() == options.image_std().size(),
              "GeneralizedRCNNTransform: image_mean and image_std need the same, nonzero length, got ",
              options.image_mean().size(), " and ", options.image_std().size());
  EMBER_CHECK(options.size_divisible() > 0, "GeneralizedRCNNTransform: size_divisible=", options.size_divisible(),
              " is not positive");
}

void GeneralizedRCNNTransformImpl::pretty_print(std::ostream& stream) const {
  const auto list = [&](const auto& v) {
    stream << "[";
    for (size_t i = 0; i < v.size(); ++i) stream << (i ? ", " : "") << v[i];
    stream << "]";
  };
  stream << "GeneralizedRCNNTransform(\n    Normalize(mean=";
  list(options.image_mean());
  stream << ", std=";
  list(options.image_std());
  stream << ")\n    Resize(min_size=(";
  for (size_t i = 0; i < options.min_size().size(); ++i) stream << (i ? ", " : "") << options.min_size()[i];
  stream << (options.min_size().size() == 1 ? ",)" : ")") << ", max_size=" << options.max_size()
         << ", mode='bilinear')\n)";
}

Tensor GeneralizedRCNNTransformImpl::normalize(const Tensor& image) const {
  EMBER_CHECK(image.is_floating_point(),
              "GeneralizedRCNNTransform: Expected input images to be of floating type (in range [0, 1]), but found "
              "type ",
              image.scalar_type(), " instead");
  const int64_t c = image.size(0);
  const auto n = static_cast<int64_t>(options.image_mean().size());
  EMBER_CHECK(c == n || c == 1, "GeneralizedRCNNTransform: images with ", c, " channels cannot be normalized with ", n,
              " means and stds");
  const Tensor mean = tensor(options.image_mean(), image.options()).view({-1, 1, 1});
  const Tensor std = tensor(options.image_std(), image.options()).view({-1, 1, 1});
  return (image - mean) / std;
}

std::tuple<Tensor, std::optional<Target>> GeneralizedRCNNTransformImpl::resize(
    const Tensor& image, const std::optional<Target>& target) const {
  const int64_t h = image.size(-2), w = image.size(-1);
  EMBER_CHECK(h > 0 && w > 0, "GeneralizedRCNNTransform: empty image of shape ", image.sizes());
  float size = 0;
  if (is_training()) {
    if (options._skip_resize()) return {image, target};
    // torch_choice: int(torch.empty(1).uniform_(0, len(k))), on the default generator.
    const auto k = static_cast<double>(options.min_size().size());
    const auto index = static_cast<size_t>(empty({1}).uniform_(0.0, k).item<double>());
    size = static_cast<float>(options.min_size().at(std::min(index, options.min_size().size() - 1)));
  } else {
    size = static_cast<float>(options.min_size().back());
  }
  namespace F = nn::functional;
  auto opts = F::InterpolateFuncOptions().mode(enumtype::kBilinear()).align_corners(false);
  if (options.fixed_size()) {
    opts.size(std::vector<int64_t>{options.fixed_size()->second, options.fixed_size()->first});
  } else {
    // float32 arithmetic, then .item(): the scale torchvision passes on.
    // `number / tensor` is reciprocal(tensor) * number in PyTorch, which
    // can differ from the division in the last bit (and so in the size).
    const float min_side = static_cast<float>(std::min(h, w)), max_side = static_cast<float>(std::max(h, w));
    const float scale = std::min((1.0f / min_side) * size, (1.0f / max_side) * static_cast<float>(options.max_size()));
    opts.scale_factor(std::vector<double>{scale, scale}).recompute_scale_factor(true);
  }
  const Tensor resized = F::interpolate(image.unsqueeze(0), opts).squeeze(0);
  if (!target) return {resized, target};
  Target t = *target;
  const ImageSize from{h, w}, to{resized.size(-2), resized.size(-1)};
  auto boxes = t.find("boxes");
  EMBER_CHECK(boxes != t.end(), "GeneralizedRCNNTransform: a target has no boxes");
  boxes->second = resize_boxes(boxes->second, from, to);
  if (auto kp = t.find("keypoints"); kp != t.end()) kp->second = resize_keypoints(kp->second, from, to);
  if (auto masks = t.find("masks"); masks != t.end()) {
    auto mopts = F::InterpolateFuncOptions();
    if (options.fixed_size()) {
      mopts.size(opts.size());
    } else {
      mopts.scale_factor(opts.scale_factor()).recompute_scale_factor(true);
    }
    masks->second = F::interpolate(masks->second.unsqueeze(1).to(kFloat), mopts).select(1, 0).to(kByte);
  }
  return {resized, std::move(t)};
}

Tensor GeneralizedRCNNTransformImpl::batch_images(const std::vector<Tensor>& images, int64_t size_divisible) const {
  EMBER_CHECK(!images.empty(), "GeneralizedRCNNTransform: no images");
  EMBER_CHECK(size_divisible > 0, "GeneralizedRCNNTransform: size_divisible=", size_divisible, " is not positive");
  std::vector<int64_t> max_size = images[0].sizes().vec();
  for (const Tensor& img : images) {
    EMBER_CHECK(img.dim() == 3 && img.scalar_type() == images[0].scalar_type(),
                "GeneralizedRCNNTransform: images of shapes ", images[0].sizes(), " and ", img.sizes(),
                " or dtypes cannot be batched");
    for (int64_t d = 0; d < 3; ++d) max_size[d] = std::max(max_size[d], img.size(d));
  }
  const auto stride = static_cast<double>(size_divisible);
  for (int64_t d = 1; d < 3; ++d)
    max_size[d] = static_cast<int64_t>(std::ceil(static_cast<double>(max_size[d]) / stride) * stride);
  std::vector<int64_t> batch_shape{static_cast<int64_t>(images.size())};
  batch_shape.insert(batch_shape.end(), max_size.begin(), max_size.end());
  Tensor batched = zeros(batch_shape, images[0].options());
  for (size_t i = 0; i < images.size(); ++i) {
    const Tensor& img = images[i];
    batched.select(0, static_cast<int64_t>(i))
        .index({Slice(0, img.size(0)), Slice(0, img.size(1)), Slice(0, img.size(2))})
        .copy_(img);
  }
  return batched;
}

std::tuple<ImageList, std::optional<std::vector<Target>>> GeneralizedRCNNTransformImpl::forward(
    const std::vector<Tensor>& images_in, const std::optional<std::vector<Target>>& targets_in) {
  EMBER_CHECK(!images_in.empty(), "GeneralizedRCNNTransform: no images");
  EMBER_CHECK(!targets_in || targets_in->size() == images_in.size(),
              "GeneralizedRCNNTransform: ", targets_in ? targets_in->size() : 0, " targets for ", images_in.size(),
              " images");
  std::vector<Tensor> images;
  std::optional<std::vector<Target>> targets = targets_in;
  std::vector<ImageSize> sizes;
  for (size_t i = 0; i < images_in.size(); ++i) {
    const Tensor& image = images_in[i];
    EMBER_CHECK(image.defined() && image.dim() == 3,
                "GeneralizedRCNNTransform: images is expected to be a list of 3d tensors of shape [C, H, W], got ",
                image.defined() ? image.sizes() : IntArrayRef{});
    std::optional<Target> t;
    if (targets) t = (*targets)[i];
    auto [resized, new_target] = resize(normalize(image), t);
    if (targets && new_target) (*targets)[i] = std::move(*new_target);
    sizes.emplace_back(resized.size(-2), resized.size(-1));
    images.push_back(std::move(resized));
  }
  return {ImageList(batch_images(images, options.size_divisible()), std::move(sizes)), std::move(targets)};
}

std::vector<Detection> GeneralizedRCNNTransformImpl::postprocess(
    std::vector<Detection> result, const std::vector<ImageSize>& image_shapes,
    const std::vector<ImageSize>& original_image_sizes) const {
  if (is_training()) return result;
  EMBER_CHECK(result.size() <= image_shapes.size() && result.size() <= original_image_sizes.size(),
              "GeneralizedRCNNTransform.postprocess: ", result.size(), " results for ", image_shapes.size(), " images");
  for (size_t i = 0; i < result.size(); ++i) {
    auto boxes = result[i].find("boxes");
    if (boxes != result[i].end()) boxes->second = resize_boxes(boxes->second, image_shapes[i], original_image_sizes[i]);
    auto masks = result[i].find("masks");
    if (masks != result[i].end() && boxes != result[i].end())
      masks->second = roi_heads::paste_masks_in_image(masks->second, boxes->second, original_image_sizes[i]);
    auto kp = result[i].find("keypoints");
    if (kp != result[i].end()) kp->second = resize_keypoints(kp->second, image_shapes[i], original_image_sizes[i]);
  }
  return result;
}

Tensor resize_boxes(const Tensor& boxes, ImageSize original_size, ImageSize new_size) {
  EMBER_CHECK(boxes.dim() == 2 && boxes.size(1) == 4, "resize_boxes: expected boxes of shape [N, 4], got ",
              boxes.sizes());
  const double rh = ratio(new_size.first, original_size.first);
  const double rw = ratio(new_size.second, original_size.second);
  return stack({boxes.select(1, 0) * rw, boxes.select(1, 1) * rh, boxes.select(1, 2) * rw, boxes.select(1, 3) * rh}, 1);
}

Tensor resize_keypoints(const Tensor& keypoints, ImageSize original_size, ImageSize new_size) {
  EMBER_CHECK(keypoints.dim() >= 1 && keypoints.size(-1) >= 2,
              "resize_keypoints: expected keypoints of shape [N, K, 3], got ", keypoints.sizes());
  const double rh = ratio(new_size.first, original_size.first);
  const double rw = ratio(new_size.second, original_size.second);
  Tensor out = keypoints.clone();
  Tensor xs = out.select(-1, 0), ys = out.select(-1, 1);
  xs *= rw;
  ys *= rh;
  return out;
}

}  // namespace torch::vision::models::detection::transform
