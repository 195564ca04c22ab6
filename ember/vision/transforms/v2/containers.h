#pragma once
// torchvision.transforms.v2's RandomApply, RandomChoice and RandomOrder over
// v2 transforms (any Sample -> Sample callable, module holders included), with
// v2's draws from Ember's generator: torch.rand(1) < p applies, RandomChoice
// takes torch.multinomial(p / sum(p), 1), RandomOrder follows torch.randperm(n).
// (v1's RandomChoice and RandomOrder use Python's `random`; v2's use torch's,
// so a seed gives torchvision's choice.)
#include <memory>
#include <optional>
#include <ostream>
#include <vector>

#include "ember/vision/transforms/optional_list.h"
#include "ember/vision/transforms/v2/sample_module.h"

namespace torch::vision::transforms::v2 {

class RandomApplyImpl : public detail::SampleModule<RandomApplyImpl> {
 public:
  explicit RandomApplyImpl(std::vector<SampleTransform> transforms, double p = 0.5);
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  using detail::SampleModule<RandomApplyImpl>::forward;
  Sample forward(Sample sample);
  std::vector<SampleTransform> transforms;
  double p;
};

class RandomChoiceImpl : public detail::SampleModule<RandomChoiceImpl> {
 public:
  explicit RandomChoiceImpl(std::vector<SampleTransform> transforms, OptionalFloats p = std::nullopt);
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  using detail::SampleModule<RandomChoiceImpl>::forward;
  Sample forward(Sample sample);
  std::vector<SampleTransform> transforms;
  // The normalised weights (uniform when none were given), as Python's self.p.
  std::vector<double> p;
};

class RandomOrderImpl : public detail::SampleModule<RandomOrderImpl> {
 public:
  explicit RandomOrderImpl(std::vector<SampleTransform> transforms);
  void reset() override;
  void pretty_print(std::ostream& stream) const override;
  using detail::SampleModule<RandomOrderImpl>::forward;
  Sample forward(Sample sample);
  std::vector<SampleTransform> transforms;
};

// The holders take the braced list of transforms itself (no forwarding constructor, which
// would find such a list ambiguous): RandomApply({ColorJitter(...), RandomRotation({-10, 10})}, 0.3).
#define EMBER_V2_CONTAINER_HOLDER(Name, ...)                                              \
  class Name : public ::torch::nn::ModuleHolder<Name##Impl> {                             \
   public:                                                                                \
    Name(std::nullptr_t) : ::torch::nn::ModuleHolder<Name##Impl>(nullptr) {} /* NOLINT */ \
    Name(std::shared_ptr<Name##Impl> impl)                                   /* NOLINT */ \
        : ::torch::nn::ModuleHolder<Name##Impl>(std::move(impl)) {}                       \
    using ::torch::nn::ModuleHolder<Name##Impl>::get;                                     \
    using Impl = Name##Impl;                                                              \
    __VA_ARGS__                                                                           \
  }

EMBER_V2_CONTAINER_HOLDER(
    RandomApply, RandomApply(std::vector<SampleTransform> transforms, double p = 0.5) /* NOLINT */
    : ::torch::nn::ModuleHolder<RandomApplyImpl>(std::make_shared<RandomApplyImpl>(std::move(transforms), p)){});
EMBER_V2_CONTAINER_HOLDER(RandomChoice,
                          RandomChoice(std::vector<SampleTransform> transforms, OptionalFloats p = std::nullopt)
                          /* NOLINT */
                          : ::torch::nn::ModuleHolder<RandomChoiceImpl>(
                              std::make_shared<RandomChoiceImpl>(std::move(transforms), std::move(p))){});
EMBER_V2_CONTAINER_HOLDER(
    RandomOrder, RandomOrder(std::vector<SampleTransform> transforms) /* NOLINT */
    : ::torch::nn::ModuleHolder<RandomOrderImpl>(std::make_shared<RandomOrderImpl>(std::move(transforms))){});

#undef EMBER_V2_CONTAINER_HOLDER

}  // namespace torch::vision::transforms::v2
