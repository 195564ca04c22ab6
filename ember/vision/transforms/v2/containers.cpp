#include "ember/vision/transforms/v2/containers.h"

#include <cmath>
#include <utility>

#include "ember/core/error.h"
#include "ember/ops/all_ops.h"
#include "ember/ops/factory/random.h"

namespace torch::vision::transforms::v2 {

namespace {

void check_transforms(const std::vector<SampleTransform>& transforms, const char* op) {
  for (size_t i = 0; i < transforms.size(); ++i)
    EMBER_CHECK(static_cast<bool>(transforms[i]), op, ": transform ", i, " is empty");
}

Sample apply_all(const std::vector<SampleTransform>& transforms, Sample sample) {
  for (const auto& t : transforms) sample = t(std::move(sample));
  return sample;
}

}  // namespace

// ---- RandomApply ----
RandomApplyImpl::RandomApplyImpl(std::vector<SampleTransform> transforms_, double p_)
    : transforms(std::move(transforms_)), p(p_) {
  reset();
}
void RandomApplyImpl::reset() {
  check_transforms(transforms, "RandomApply");
  EMBER_CHECK(p >= 0.0 && p <= 1.0,
              "RandomApply: `p` should be a floating point value in the interval [0.0, 1.0], got ", p);
}
void RandomApplyImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::vision::transforms::v2::RandomApply(p=" << p << ", " << transforms.size() << " transforms)";
}
Sample RandomApplyImpl::forward(Sample sample) {
  // `if torch.rand(1) >= self.p: return inputs`, compared in float32.
  if (rand({1}).item<float>() >= static_cast<float>(p)) return sample;
  return apply_all(transforms, std::move(sample));
}

// ---- RandomChoice ----
RandomChoiceImpl::RandomChoiceImpl(std::vector<SampleTransform> transforms_, OptionalFloats p_)
    : transforms(std::move(transforms_)) {
  check_transforms(transforms, "RandomChoice");
  EMBER_CHECK(!transforms.empty(), "RandomChoice: needs at least one transform");
  const std::vector<double> weights = p_ ? *p_ : std::vector<double>(transforms.size(), 1.0);
  EMBER_CHECK(weights.size() == transforms.size(),
              "RandomChoice: Length of p doesn't match the number of transforms: ", weights.size(),
              " != ", transforms.size());
  double total = 0;
  for (double w : weights) {
    EMBER_CHECK(w >= 0 && std::isfinite(w), "RandomChoice: the weights in p must be non-negative, got ", w);
    total += w;
  }
  EMBER_CHECK(total > 0, "RandomChoice: the weights in p sum to zero");
  for (double w : weights) p.push_back(w / total);
}
void RandomChoiceImpl::reset() {}
void RandomChoiceImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::vision::transforms::v2::RandomChoice(" << transforms.size() << " transforms)";
}
Sample RandomChoiceImpl::forward(Sample sample) {
  // torch.multinomial(torch.tensor(self.p), 1): float32 weights, as Python's default dtype.
  const int64_t k = multinomial(tensor(p, kFloat), 1).item<int64_t>();
  return transforms[k](std::move(sample));
}

// ---- RandomOrder ----
RandomOrderImpl::RandomOrderImpl(std::vector<SampleTransform> transforms_) : transforms(std::move(transforms_)) {
  reset();
}
void RandomOrderImpl::reset() { check_transforms(transforms, "RandomOrder"); }
void RandomOrderImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::vision::transforms::v2::RandomOrder(" << transforms.size() << " transforms)";
}
Sample RandomOrderImpl::forward(Sample sample) {
  const Tensor order = randperm(static_cast<int64_t>(transforms.size()));
  const int64_t* idx = order.data_ptr<int64_t>();
  for (int64_t i = 0; i < order.numel(); ++i) sample = transforms[idx[i]](std::move(sample));
  return sample;
}

}  // namespace torch::vision::transforms::v2
