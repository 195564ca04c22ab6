#pragma once
// The backbone a detection model holds: any module (with an `out_channels`
// member, except for SSD) whose forward maps an image batch [N, C, H, W] either to one
// feature map (named "0", as torchvision wraps a Tensor) or to an ordered
// dict of them (BackboneWithFPN, IntermediateLayerGetter). Registered as the
// model's child "backbone", so state_dict names are torchvision's.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>

#include "ember/core/error.h"
#include "ember/core/ordered_dict.h"
#include "ember/core/tensor.h"
#include "ember/nn/module.h"
#include "ember/nn/pimpl.h"

namespace torch::vision::models::detection {

class Backbone {
 public:
  template <typename ModuleType>
  /* implicit */ Backbone(const nn::ModuleHolder<ModuleType>& holder) : Backbone(holder.ptr()) {}  // NOLINT
  template <typename ModuleType>
  /* implicit */ Backbone(std::shared_ptr<ModuleType> module)  // NOLINT
      : module_(module) {
    EMBER_CHECK(module != nullptr, "backbone: the module is null");
    // SSD's backbones have no single out_channels; SSD measures them.
    if constexpr (requires { static_cast<int64_t>(module->out_channels); })
      out_channels_ = static_cast<int64_t>(module->out_channels);
    run_ = make_runner(module.get());
  }
  // A module without the member (an nn::Sequential of features, as Python's
  // `backbone.out_channels = 1280` on mobilenet_v2().features) with the count given.
  template <typename ModuleType>
  Backbone(const nn::ModuleHolder<ModuleType>& holder, int64_t out_channels) : Backbone(holder.ptr(), out_channels) {}
  template <typename ModuleType>
  Backbone(std::shared_ptr<ModuleType> module, int64_t out_channels) : module_(module), out_channels_(out_channels) {
    EMBER_CHECK(module != nullptr, "backbone: the module is null");
    EMBER_CHECK(out_channels > 0, "backbone: out_channels=", out_channels, " is not positive");
    run_ = make_runner(module.get());
  }
  Backbone() = default;

  OrderedDict<std::string, Tensor> operator()(const Tensor& x) const {
    EMBER_CHECK(run_ != nullptr, "backbone: empty");
    return run_(x);
  }
  const std::shared_ptr<nn::Module>& ptr() const { return module_; }
  int64_t out_channels() const { return out_channels_; }
  bool is_empty() const { return module_ == nullptr; }

 private:
  template <typename ModuleType>
  static std::function<OrderedDict<std::string, Tensor>(const Tensor&)> make_runner(ModuleType* m) {
    return [m](const Tensor& x) {
      using Result = std::decay_t<decltype(m->forward(x))>;
      if constexpr (std::is_same_v<Result, Tensor>) {
        OrderedDict<std::string, Tensor> out;
        out.insert("0", m->forward(x));
        return out;
      } else {
        return OrderedDict<std::string, Tensor>(m->forward(x));
      }
    };
  }

  std::shared_ptr<nn::Module> module_;
  int64_t out_channels_ = 0;
  std::function<OrderedDict<std::string, Tensor>(const Tensor&)> run_;
};

}  // namespace torch::vision::models::detection
