#pragma once
// Compose, RandomApply, RandomChoice and RandomOrder: sequences of transforms
// (module holders or any callable Tensor -> Tensor). The random ones draw
// from Ember's default generator; torchvision's RandomOrder and RandomChoice
// use Python's `random` module, which Ember cannot replay, so their choices
// repeat under torch::manual_seed but are not torchvision's draws.
#include <optional>
#include <ostream>
#include <vector>

#include "ember/vision/transforms/optional_list.h"
#include "ember/vision/transforms/transform_module.h"

namespace torch::vision::transforms {

class ComposeImpl : public nn::Cloneable<ComposeImpl> {
 public:
  explicit ComposeImpl(std::vector<TransformFunction> transforms);
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(Tensor img);
  std::vector<TransformFunction> transforms;
};

// Compose({Resize(256), CenterCrop(224), ConvertImageDtype(kFloat)})
class Compose : public nn::ModuleHolder<ComposeImpl> {
 public:
  // No forwarding constructor: a braced list of transforms must mean the list.
  Compose(std::nullptr_t) : nn::ModuleHolder<ComposeImpl>(nullptr) {}                             // NOLINT
  Compose(std::shared_ptr<ComposeImpl> impl) : nn::ModuleHolder<ComposeImpl>(std::move(impl)) {}  // NOLINT
  using nn::ModuleHolder<ComposeImpl>::get;
  using Impl = ComposeImpl;
  Compose(std::vector<TransformFunction> transforms)  // NOLINT(google-explicit-constructor)
      : nn::ModuleHolder<ComposeImpl>(std::make_shared<ComposeImpl>(std::move(transforms))) {}
};

// Applies all transforms (in order) with probability p.
class RandomApplyImpl : public nn::Cloneable<RandomApplyImpl> {
 public:
  explicit RandomApplyImpl(std::vector<TransformFunction> transforms, double p = 0.5);
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(Tensor img);
  std::vector<TransformFunction> transforms;
  double p;
};

class RandomApply : public nn::ModuleHolder<RandomApplyImpl> {
 public:
  // No forwarding constructor: a braced list of transforms must mean the list.
  RandomApply(std::nullptr_t) : nn::ModuleHolder<RandomApplyImpl>(nullptr) {}                                 // NOLINT
  RandomApply(std::shared_ptr<RandomApplyImpl> impl) : nn::ModuleHolder<RandomApplyImpl>(std::move(impl)) {}  // NOLINT
  using nn::ModuleHolder<RandomApplyImpl>::get;
  using Impl = RandomApplyImpl;
  RandomApply(std::vector<TransformFunction> transforms, double p = 0.5)  // NOLINT
      : nn::ModuleHolder<RandomApplyImpl>(std::make_shared<RandomApplyImpl>(std::move(transforms), p)) {}
};

// Applies one transform picked at random (with weights p, or uniformly).
class RandomChoiceImpl : public nn::Cloneable<RandomChoiceImpl> {
 public:
  explicit RandomChoiceImpl(std::vector<TransformFunction> transforms, OptionalFloats p = std::nullopt);
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(Tensor img);
  std::vector<TransformFunction> transforms;
  std::optional<std::vector<double>> p;
};

class RandomChoice : public nn::ModuleHolder<RandomChoiceImpl> {
 public:
  // No forwarding constructor: a braced list of transforms must mean the list.
  RandomChoice(std::nullptr_t) : nn::ModuleHolder<RandomChoiceImpl>(nullptr) {}  // NOLINT
  RandomChoice(std::shared_ptr<RandomChoiceImpl> impl)
      : nn::ModuleHolder<RandomChoiceImpl>(std::move(impl)) {}  // NOLINT
  using nn::ModuleHolder<RandomChoiceImpl>::get;
  using Impl = RandomChoiceImpl;
  RandomChoice(std::vector<TransformFunction> transforms,  // NOLINT
               OptionalFloats p = std::nullopt)
      : nn::ModuleHolder<RandomChoiceImpl>(std::make_shared<RandomChoiceImpl>(std::move(transforms), std::move(p))) {}
};

// Applies all transforms in a random order.
class RandomOrderImpl : public nn::Cloneable<RandomOrderImpl> {
 public:
  explicit RandomOrderImpl(std::vector<TransformFunction> transforms);
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(Tensor img);
  std::vector<TransformFunction> transforms;
};

class RandomOrder : public nn::ModuleHolder<RandomOrderImpl> {
 public:
  // No forwarding constructor: a braced list of transforms must mean the list.
  RandomOrder(std::nullptr_t) : nn::ModuleHolder<RandomOrderImpl>(nullptr) {}                                 // NOLINT
  RandomOrder(std::shared_ptr<RandomOrderImpl> impl) : nn::ModuleHolder<RandomOrderImpl>(std::move(impl)) {}  // NOLINT
  using nn::ModuleHolder<RandomOrderImpl>::get;
  using Impl = RandomOrderImpl;
  RandomOrder(std::vector<TransformFunction> transforms)  // NOLINT(google-explicit-constructor)
      : nn::ModuleHolder<RandomOrderImpl>(std::make_shared<RandomOrderImpl>(std::move(transforms))) {}
};

// Lambda(fn): a user function as a transform.
class LambdaImpl : public nn::Cloneable<LambdaImpl> {
 public:
  explicit LambdaImpl(TransformFunction lambd);
  void reset() override {}
  Tensor forward(Tensor img);
  TransformFunction lambd;
};

class Lambda : public nn::ModuleHolder<LambdaImpl> {
 public:
  Lambda(std::nullptr_t) : nn::ModuleHolder<LambdaImpl>(nullptr) {}                            // NOLINT
  Lambda(std::shared_ptr<LambdaImpl> impl) : nn::ModuleHolder<LambdaImpl>(std::move(impl)) {}  // NOLINT
  Lambda(TransformFunction lambd)                                                              // NOLINT
      : nn::ModuleHolder<LambdaImpl>(std::make_shared<LambdaImpl>(std::move(lambd))) {}
  using nn::ModuleHolder<LambdaImpl>::get;
  using Impl = LambdaImpl;
};

// ToTensor: an [H, W, C] (or [H, W]) array to a [C, H, W] image, uint8 scaled to [0, 1]
// (torchvision's NumPy path; there is no PIL image in C++).
class ToTensorImpl : public nn::Cloneable<ToTensorImpl> {
 public:
  void reset() override {}
  Tensor forward(Tensor pic);
};
TORCH_MODULE(ToTensor);

}  // namespace torch::vision::transforms
