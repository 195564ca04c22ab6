#include "ember/audio/functional/masking.h"

#include <algorithm>

#include "ember/core/error.h"
#include "ember/ops/all_ops.h"

namespace torch::audio::functional {
namespace {

int64_t effective_mask_param(int64_t mask_param, double p, int64_t axis_length) {
  if (p == 1.0) return mask_param;
  return std::min(mask_param, static_cast<int64_t>(static_cast<double>(axis_length) * p));
}

}  // namespace

Tensor mask_along_axis_iid(const Tensor& specgrams, int64_t mask_param, double mask_value, int64_t axis, double p) {
  EMBER_CHECK(axis == 2 || axis == 3,
              "mask_along_axis_iid: only frequency (2) and time (3) masking are supported, got ", axis);
  EMBER_CHECK(p >= 0.0 && p <= 1.0, "mask_along_axis_iid: the value of p must be between 0.0 and 1.0, got ", p);
  EMBER_CHECK(specgrams.dim() == 4, "mask_along_axis_iid: expected [batch, channel, freq, time], got ",
              specgrams.sizes());
  EMBER_CHECK(specgrams.is_floating_point(), "mask_along_axis_iid: expected a floating-point spectrogram, got ",
              specgrams.scalar_type());
  mask_param = effective_mask_param(mask_param, p, specgrams.size(axis));
  if (mask_param < 1) return specgrams;
  auto opts = TensorOptions(specgrams.scalar_type());
  Tensor value = rand({specgrams.size(0), specgrams.size(1)}, opts) * static_cast<double>(mask_param);
  Tensor min_value = rand({specgrams.size(0), specgrams.size(1)}, opts) * (specgrams.size(axis) - value);
  Tensor start = min_value.to(kLong).unsqueeze(-1).unsqueeze(-1);
  Tensor end = (min_value.to(kLong) + value.to(kLong)).unsqueeze(-1).unsqueeze(-1);
  Tensor pos = arange(0, specgrams.size(axis), opts);
  Tensor t = specgrams.transpose(axis, -1);
  t = t.masked_fill(logical_and(pos >= start, pos < end), mask_value);
  return t.transpose(axis, -1);
}

Tensor mask_along_axis(const Tensor& specgram, int64_t mask_param, double mask_value, int64_t axis, double p) {
  EMBER_CHECK(axis == 1 || axis == 2, "mask_along_axis: only frequency (1) and time (2) masking are supported, got ",
              axis);
  EMBER_CHECK(p >= 0.0 && p <= 1.0, "mask_along_axis: the value of p must be between 0.0 and 1.0, got ", p);
  EMBER_CHECK(specgram.dim() >= 2, "mask_along_axis: expected [..., freq, time], got ", specgram.sizes());
  const auto shape = specgram.sizes().vec();
  Tensor x = specgram.reshape({-1, specgram.size(-2), specgram.size(-1)});
  mask_param = effective_mask_param(mask_param, p, x.size(axis));
  if (mask_param < 1) return specgram;
  const double value = rand({1}).item<double>() * static_cast<double>(mask_param);
  const double min_value = rand({1}).item<double>() * (static_cast<double>(x.size(axis)) - value);
  const auto start = static_cast<int64_t>(min_value);
  const int64_t end = start + static_cast<int64_t>(value);
  Tensor pos = arange(0, x.size(axis), TensorOptions(kLong));
  Tensor mask = logical_and(pos >= start, pos < end);
  if (axis == 1) mask = mask.unsqueeze(-1);
  return x.masked_fill(mask, mask_value).reshape(shape);
}

}  // namespace torch::audio::functional
