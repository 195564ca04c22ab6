#pragma once
// The multi-weight API (torchvision.models._api): a Weights value names a
// checkpoint (its url), the preprocessing it was trained with (transforms())
// and its meta (categories, parameter count, reported metrics). A
// <Model>_Weights struct (weights_enums.h) plays the Python enum: its members
// are `static const Weights&`, so ResNet50_Weights::IMAGENET1K_V2.url reads as
// in Python.
//
// Nothing is downloaded: a builder given weights loads them from the file the
// user points at with with_path(); without one it raises naming the file.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ember/core/error.h"
#include "ember/core/ordered_dict.h"
#include "ember/core/tensor.h"
#include "ember/nn/module.h"
#include "ember/vision/models/weights_transforms.h"

namespace torch::vision::models {

struct WeightsMeta {
  std::vector<std::string> categories;
  int64_t num_params = 0;
  std::pair<int64_t, int64_t> min_size{1, 1};
  std::string recipe;
  // "_metrics": dataset -> metric -> value, e.g. {"ImageNet-1K": {"acc@1": 80.858}}.
  std::map<std::string, std::map<std::string, double>> metrics;
  std::string docs;
  // Keypoint R-CNN's keypoint names (COCO's 17), else empty.
  std::vector<std::string> keypoint_names;
  // Set where the weights have a licence of their own (the SWAG ViTs).
  std::string license;
};

struct Weights {
  Weights(std::string enum_name, std::string member, std::string url,
          transforms::_presets::PresetOptions transforms_options, WeightsMeta meta);

  std::string enum_name;  // "ResNet50_Weights"
  std::string member;     // "IMAGENET1K_V2"
  std::string url;
  // Which preset transforms() builds, and its parameters.
  transforms::_presets::PresetOptions transforms_options;
  WeightsMeta meta;
  // Where the checkpoint is on disk; set by with_path().
  std::optional<std::string> path;

  // "ResNet50_Weights.IMAGENET1K_V2", as Python's str(weights).
  std::string name() const { return enum_name + "." + member; }
  // The checkpoint's file name, the last component of the url ("resnet50-11ad3fa6.pth").
  std::string file_name() const;
  // The inference preprocessing: preprocess = weights.transforms(); preprocess(img)
  // (optical flow: preprocess(img1, img2)).
  transforms::_presets::WeightsTransforms transforms() const;
  // A copy of these weights that loads from `file` (a torchvision .pth or a .safetensors file).
  Weights with_path(std::string file) const;
  // The checkpoint's tensors, read from path (raises naming the file when there is none).
  // progress is accepted for Python's signature; nothing is downloaded.
  std::vector<std::pair<std::string, Tensor>> get_state_dict(bool progress = true) const;

  bool operator==(const Weights& other) const { return enum_name == other.enum_name && member == other.member; }
  bool operator!=(const Weights& other) const { return !(*this == other); }
};

std::ostream& operator<<(std::ostream& stream, const Weights& weights);

// A <Model>_Weights enum as a value: its members in order and its DEFAULT alias.
struct WeightsEnum {
  WeightsEnum(std::string name, std::vector<Weights> members, std::string default_member);
  std::string name;
  std::vector<Weights> members;
  std::string default_member;
  // A member by name ("IMAGENET1K_V1", or "DEFAULT"); raises naming the enum and the members.
  const Weights& operator[](const std::string& member) const;
  // Python's WeightsEnum.verify for a string: "IMAGENET1K_V1" or "ResNet50_Weights.IMAGENET1K_V1".
  const Weights& verify(const std::string& obj) const;
};

namespace detail {
// Python's WeightsEnum.verify: weights of another enum raise naming the builder.
void verify_weights(const std::optional<Weights>& weights, const char* enum_name, const char* builder);
// _ovewrite_named_param for num_classes: the number of categories of the
// weights, unless the user asked for another number (which raises).
int64_t num_classes_for(const std::optional<Weights>& weights, std::optional<int64_t> num_classes, const char* builder);
// torchvision's _ovewrite_value_param, called when weights are given: the
// value is the weights' `expected`, and a different `actual` raises naming the parameter.
template <typename T>
T ovewrite_value_param(const char* builder, const char* param, const std::optional<T>& actual, const T& expected) {
  EMBER_CHECK(!actual || *actual == expected, builder, ": The parameter '", param, "' expected value ", expected,
              " but got ", *actual, " instead.");
  return expected;
}

// Loads the weights into `model` strictly (every missing, unexpected or
// mismatched key raises), from weights.path.
void load_weights(nn::Module& model, const Weights& weights, const char* builder);
}  // namespace detail

}  // namespace torch::vision::models
