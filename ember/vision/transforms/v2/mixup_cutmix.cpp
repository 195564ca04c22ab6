#include "ember/vision/transforms/v2/mixup_cutmix.h"

#include <cmath>

#include "ember/core/error.h"
#include "ember/ops/all_ops.h"
#include "ember/ops/factory/distributions.h"
#include "ember/vision/transforms/random_draws.h"

namespace torch::vision::transforms::v2 {

using namespace ::torch::indexing;

namespace {

void check_options(const MixUpOptions& o, const char* op) {
  EMBER_CHECK(o.num_classes() >= 1, op, ": num_classes must be positive, got ", o.num_classes());
  EMBER_CHECK(o.alpha() > 0 && std::isfinite(o.alpha()), op, ": alpha must be positive, got ", o.alpha());
}

void check_batch(const Tensor& images, const Tensor& labels, int64_t num_classes, const char* op) {
  EMBER_CHECK(images.defined() && images.dim() >= 4, op, ": expected a batch of images [B, C, H, W], got ",
              images.defined() ? images.sizes() : IntArrayRef{});
  EMBER_CHECK(labels.defined() && labels.dim() == 1 && labels.scalar_type() == kLong, op,
              ": expected int64 labels [B], got ", labels.defined() ? labels.sizes() : IntArrayRef{});
  EMBER_CHECK(labels.size(0) == images.size(0), op, ": the batch has ", images.size(0), " images but ", labels.size(0),
              " labels");
  if (labels.numel() > 0) {
    const int64_t lo = labels.min().item<int64_t>(), hi = labels.max().item<int64_t>();
    EMBER_CHECK(lo >= 0 && hi < num_classes, op, ": labels must be in [0, num_classes = ", num_classes, "), got ", lo,
                " .. ", hi);
  }
}

// Beta(alpha, alpha) as torch.distributions.Beta samples it: the first coordinate of a
// Dirichlet draw on float32 concentrations (the core's _sample_dirichlet, PyTorch's draws).
double sample_beta(double alpha) {
  return _sample_dirichlet(full({2}, alpha, TensorOptions(kFloat)))[0].item<double>();
}

// _mixup_label: lam * onehot + (1 - lam) * onehot rolled by one.
Tensor mix_labels(const Tensor& labels, int64_t num_classes, double lam) {
  const Tensor onehot = one_hot(labels, num_classes).to(kFloat);
  return onehot.roll({1}, {0}) * (1.0 - lam) + onehot * lam;
}

}  // namespace

MixUpImpl::MixUpImpl(MixUpOptions options_) : options(options_) { reset(); }
void MixUpImpl::reset() { check_options(options, "MixUp"); }
std::tuple<Tensor, Tensor> MixUpImpl::forward(Tensor images, Tensor labels) {
  check_batch(images, labels, options.num_classes(), "MixUp");
  const double lam = static_cast<float>(sample_beta(options.alpha()));
  const Tensor mixed = (images.roll({1}, {0}) * (1.0 - lam) + images * lam).to(images.scalar_type());
  return {mixed, mix_labels(labels, options.num_classes(), lam)};
}

CutMixImpl::CutMixImpl(CutMixOptions options_) : options(options_) { reset(); }
void CutMixImpl::reset() { check_options(options, "CutMix"); }
std::tuple<Tensor, Tensor> CutMixImpl::forward(Tensor images, Tensor labels) {
  check_batch(images, labels, options.num_classes(), "CutMix");
  const int64_t h = images.size(-2), w = images.size(-1);
  EMBER_CHECK(h > 0 && w > 0, "CutMix: the images are empty (shape ", images.sizes(), ")");
  const double lam = static_cast<float>(sample_beta(options.alpha()));
  const int64_t rx = detail::randint_one(0, w), ry = detail::randint_one(0, h);
  const double r = 0.5 * std::sqrt(1.0 - lam);
  const auto rw = static_cast<int64_t>(r * static_cast<double>(w));
  const auto rh = static_cast<int64_t>(r * static_cast<double>(h));
  const int64_t x1 = std::max<int64_t>(rx - rw, 0), y1 = std::max<int64_t>(ry - rh, 0);
  const int64_t x2 = std::min(rx + rw, w), y2 = std::min(ry + rh, h);
  const double lam_adjusted = 1.0 - static_cast<double>((x2 - x1) * (y2 - y1)) / static_cast<double>(w * h);
  Tensor out = images.clone();
  const Tensor rolled = images.roll({1}, {0});
  out.index_put_({Ellipsis, Slice(y1, y2), Slice(x1, x2)}, rolled.index({Ellipsis, Slice(y1, y2), Slice(x1, x2)}));
  return {out, mix_labels(labels, options.num_classes(), lam_adjusted)};
}

}  // namespace torch::vision::transforms::v2
