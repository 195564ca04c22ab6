#pragma once
// The backbone a segmentation model holds: any module whose forward maps an
// image batch to an ordered dict of feature maps (an IntermediateLayerGetter
// returning "out" and "aux", or "low" and "high" for LRASPP). Registered as
// the model's child "backbone", so state_dict names are torchvision's.
#include <functional>
#include <memory>
#include <string>

#include "ember/core/error.h"
#include "ember/core/ordered_dict.h"
#include "ember/core/tensor.h"
#include "ember/nn/module.h"
#include "ember/nn/pimpl.h"

namespace torch::vision::models::segmentation {

class FeatureBackbone {
 public:
  template <typename ModuleType>
  /* implicit */ FeatureBackbone(const nn::ModuleHolder<ModuleType>& holder)  // NOLINT
      : FeatureBackbone(holder.ptr()) {}
  template <typename ModuleType>
  /* implicit */ FeatureBackbone(std::shared_ptr<ModuleType> module) : module_(module) {  // NOLINT
    EMBER_CHECK(module != nullptr, "backbone: the module is null");
    run_ = [m = module.get()](const Tensor& x) { return OrderedDict<std::string, Tensor>(m->forward(x)); };
  }
  FeatureBackbone() = default;

  OrderedDict<std::string, Tensor> operator()(const Tensor& x) const {
    EMBER_CHECK(run_ != nullptr, "backbone: empty");
    return run_(x);
  }
  const std::shared_ptr<nn::Module>& ptr() const { return module_; }
  bool is_empty() const { return module_ == nullptr; }

 private:
  std::shared_ptr<nn::Module> module_;
  std::function<OrderedDict<std::string, Tensor>(const Tensor&)> run_;
};

}  // namespace torch::vision::models::segmentation
