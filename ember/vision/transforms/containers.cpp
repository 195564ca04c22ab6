#include "ember/vision/transforms/containers.h"

#include <cmath>

#include "ember/core/error.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/transforms/functional.h"

namespace torch::vision::transforms {

namespace {
void check_transforms(const std::vector<TransformFunction>& transforms, const char* op) {
  for (size_t i = 0; i < transforms.size(); ++i)
    EMBER_CHECK(static_cast<bool>(transforms[i]), op, ": transform ", i, " is empty");
}
Tensor apply_all(const std::vector<TransformFunction>& transforms, Tensor img) {
  for (const auto& t : transforms) img = t(std::move(img));
  return img;
}
}  // namespace

ComposeImpl::ComposeImpl(std::vector<TransformFunction> transforms_) : transforms(std::move(transforms_)) {
  check_transforms(transforms, "Compose");
}
void ComposeImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::vision::transforms::Compose(" << transforms.size() << " transforms)";
}
Tensor ComposeImpl::forward(Tensor img) { return apply_all(transforms, std::move(img)); }

RandomApplyImpl::RandomApplyImpl(std::vector<TransformFunction> transforms_, double p_)
    : transforms(std::move(transforms_)), p(p_) {
  check_transforms(transforms, "RandomApply");
}
void RandomApplyImpl::reset() {}
void RandomApplyImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::vision::transforms::RandomApply(p=" << p << ", " << transforms.size() << " transforms)";
}
Tensor RandomApplyImpl::forward(Tensor img) {
  // `if self.p < torch.rand(1)`: the comparison is in float32.
  if (static_cast<float>(p) < rand({1}).item<float>()) return img;
  return apply_all(transforms, std::move(img));
}

RandomChoiceImpl::RandomChoiceImpl(std::vector<TransformFunction> transforms_, OptionalFloats p_)
    : transforms(std::move(transforms_)), p(std::move(p_)) {
  check_transforms(transforms, "RandomChoice");
  EMBER_CHECK(!transforms.empty(), "RandomChoice: needs at least one transform");
  if (p) {
    EMBER_CHECK(p->size() == transforms.size(), "RandomChoice: p has ", p->size(), " weights for ", transforms.size(),
                " transforms");
    double total = 0;
    for (double w : *p) {
      EMBER_CHECK(w >= 0 && std::isfinite(w), "RandomChoice: weights must be non-negative, got ", w);
      total += w;
    }
    EMBER_CHECK(total > 0, "RandomChoice: the weights sum to zero");
  }
}
void RandomChoiceImpl::reset() {}
void RandomChoiceImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::vision::transforms::RandomChoice(" << transforms.size() << " transforms)";
}
Tensor RandomChoiceImpl::forward(Tensor img) {
  int64_t k;
  if (p)
    k = multinomial(tensor(*p, kDouble), 1).item<int64_t>();
  else
    k = randint(0, static_cast<int64_t>(transforms.size()), {1}).item<int64_t>();
  return transforms[k](std::move(img));
}

RandomOrderImpl::RandomOrderImpl(std::vector<TransformFunction> transforms_) : transforms(std::move(transforms_)) {
  check_transforms(transforms, "RandomOrder");
}
void RandomOrderImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::vision::transforms::RandomOrder(" << transforms.size() << " transforms)";
}
Tensor RandomOrderImpl::forward(Tensor img) {
  const Tensor order = randperm(static_cast<int64_t>(transforms.size()));
  for (int64_t i = 0; i < order.numel(); ++i) img = transforms[order[i].item<int64_t>()](std::move(img));
  return img;
}

LambdaImpl::LambdaImpl(TransformFunction lambd_) : lambd(std::move(lambd_)) {
  EMBER_CHECK(static_cast<bool>(lambd), "Lambda: the function is empty");
}
Tensor LambdaImpl::forward(Tensor img) { return lambd(std::move(img)); }

Tensor ToTensorImpl::forward(Tensor pic) { return functional::to_tensor(pic); }

}  // namespace torch::vision::transforms
